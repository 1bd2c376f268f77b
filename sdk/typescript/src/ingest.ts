import { retryDelayMs, sleep } from './backoff.js';
import type { RequestOptions, Transport } from './http.js';
import { EarshotError, type FieldIssue } from './errors.js';
import type { EnvelopeAnswer, EventEnvelope } from './models.js';
import { ingestHeaders } from './signing.js';
import { IngestBatcher, type BatcherOptions } from './batcher.js';

type WithOptionalKey<E> = E extends unknown ? Omit<E, 'idempotency_key'> & { idempotency_key?: string } : never;
/** An event to ingest: an envelope of the API, its `idempotency_key` optional (the SDK makes one). */
export type IngestEvent = WithOptionalKey<EventEnvelope>;

/** What the server answered for one envelope. */
export interface IngestResult {
  /** `accepted`, `duplicate` (its key was seen before: the first answer), `dead_lettered` (invalid; kept with its reason), or `conflict` (its key was in flight elsewhere until the retries ran out). */
  status: 'accepted' | 'duplicate' | 'dead_lettered' | 'conflict';
  idempotencyKey: string;
  /** The stored event's id, when accepted or a duplicate. */
  id?: string;
  /** Why it was refused. */
  reason?: string;
  fields?: FieldIssue[];
  deadLetterId?: string;
}

/** The answer to a send: counts, and one result per event in the order sent. */
export interface IngestSummary {
  accepted: number;
  duplicates: number;
  deadLettered: number;
  results: IngestResult[];
}

export interface SendOptions extends RequestOptions {
  /** X-Earshot-Provider: who sends the events. Default `sdk`. */
  provider?: string;
}

/** Envelopes one request may batch (the server's limit). */
export const MAX_BATCH_EVENTS = 500;
/** Bytes one request may carry, under the server's 1 MiB body limit. */
const MAX_BATCH_BYTES = 900_000;

/** Splits serialized envelopes into batches of at most 500 and about 900 kB, in order. */
export function batchesOf(serialized: readonly string[]): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 2;
  serialized.forEach((text, index) => {
    const size = new TextEncoder().encode(text).length + 1;
    if (current.length > 0 && (current.length >= MAX_BATCH_EVENTS || bytes + size > MAX_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 2;
    }
    current.push(index);
    bytes += size;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

function resultOf(answer: EnvelopeAnswer, idempotencyKey: string): IngestResult {
  if (answer.ok) return { status: answer.duplicate ? 'duplicate' : 'accepted', idempotencyKey, id: answer.id };
  if (answer.code === 'IDEMPOTENCY_CONFLICT') return { status: 'conflict', idempotencyKey, reason: answer.error };
  return {
    status: 'dead_lettered',
    idempotencyKey,
    reason: answer.error,
    ...(answer.fields ? { fields: answer.fields } : {}),
    ...(answer.deadLetterId ? { deadLetterId: answer.deadLetterId } : {}),
  };
}

/** `earshot.ingest`: signed event ingest, in batches, and a batcher for high-volume senders. */
export class Ingest {
  constructor(
    private readonly transport: Transport,
    private readonly webhookSecret: string | undefined,
  ) {}

  /**
   * Signs and sends one event or many: batches of at most 500, one result
   * per event in the order given. An event without `idempotency_key` gets a
   * random one, kept across retries, so a retried batch is stored once.
   */
  async send(events: IngestEvent | readonly IngestEvent[], options: SendOptions = {}): Promise<IngestSummary> {
    const secret = this.webhookSecret;
    if (!secret) throw new EarshotError('ingest needs the webhook secret: pass { webhookSecret } or set EARSHOT_WEBHOOK_SECRET');
    const list = (Array.isArray(events) ? events : [events]) as readonly IngestEvent[];
    const envelopes = list.map((event) => ({ ...event, idempotency_key: event.idempotency_key ?? globalThis.crypto.randomUUID() }));
    const results: IngestResult[] = new Array<IngestResult>(envelopes.length);
    const provider = options.provider ?? 'sdk';
    let pending = envelopes.map((_, index) => index);
    // An envelope answered "in flight" (its key is being stored by another request) is sent again once that one is done.
    for (let round = 0; pending.length > 0; round++) {
      if (round > 0) await sleep(retryDelayMs(round, undefined));
      const serialized = pending.map((index) => JSON.stringify(envelopes[index]));
      for (const batch of batchesOf(serialized)) {
        const body = batch.map((position) => envelopes[pending[position] as number]);
        const answer = await this.transport.request<{ results: EnvelopeAnswer[] }>(
          { method: 'POST', path: '/webhooks/ingest', body, signedHeaders: (raw) => ingestHeaders(secret, raw, provider) },
          options,
        );
        batch.forEach((position, i) => {
          const index = pending[position] as number;
          results[index] = resultOf(answer.results[i] as EnvelopeAnswer, envelopes[index]?.idempotency_key as string);
        });
      }
      const maxRetries = options.maxRetries ?? this.transport.options.maxRetries;
      pending = round < maxRetries ? pending.filter((index) => results[index]?.status === 'conflict') : [];
    }
    return {
      accepted: results.filter((r) => r.status === 'accepted').length,
      duplicates: results.filter((r) => r.status === 'duplicate').length,
      deadLettered: results.filter((r) => r.status === 'dead_lettered').length,
      results,
    };
  }

  /** A batcher for a high-volume sender: buffers events and sends them by size or time. */
  batcher(options: BatcherOptions = {}): IngestBatcher {
    return new IngestBatcher((events, provider) => this.send(events, provider === undefined ? {} : { provider }), options);
  }
}
