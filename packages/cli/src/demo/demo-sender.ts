import { ApiError, ConnectionError, Earshot, MAX_BATCH_EVENTS, NotFoundError, RateLimitError, type IngestEvent, type OutcomeCreateParams } from '@earshot/sdk';
import { CURRENT_EVENT_VERSION, type IncomingEventInput } from '@earshot/contracts';
import { callIdOf } from '@earshot/events';
import type { DemoOutcome } from './call-script';
import type { DemoDelivery, DemoTraffic } from './demo-traffic';

export interface DemoTarget {
  /** The server's origin, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** Where POST /api/v1/outcomes is served, when the query service runs apart from the gateway; `url` otherwise. */
  outcomesUrl?: string;
  apiKey: string;
  webhookSecret: string;
  /** When known, outcomes name Earshot's call ids (as GET /calls shows them); else the provider's. */
  tenantId?: string;
}

interface DemoProgress {
  envelopesSent: number;
  envelopesTotal: number;
  requests: number;
  rateLimited: number;
}

export interface DemoSummary {
  requests: number;
  envelopes: number;
  accepted: number;
  duplicates: number;
  deadLettered: number;
  /** Answers of 429, each waited out (Retry-After) and retried. */
  rateLimited: number;
  outcomes: { recorded: number; via: 'POST /api/v1/outcomes' | 'ingest' | 'none' };
  seconds: number;
}

export interface SendOptions {
  /** Envelopes per second; the default stays under the 5,000 per minute a tenant may ingest. */
  eventsPerSecond?: number;
  onProgress?: (progress: DemoProgress) => void;
}

/** Under the 120 ingest requests per minute a tenant may make. */
const REQUESTS_PER_SECOND = 1.5;
export const DEFAULT_EVENTS_PER_SECOND = 80;
const MAX_TRIES = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one request of the SDK (which retries nothing here: the demo paces
 * itself): a 429 is waited out for its Retry-After and counted, a 5xx or a
 * lost connection retried with backoff, up to MAX_TRIES.
 */
async function persistently<T>(summary: DemoSummary, url: string, request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    summary.requests += 1;
    try {
      return await request();
    } catch (error) {
      if (error instanceof RateLimitError) {
        summary.rateLimited += 1;
        await sleep(Math.max(1, error.retryAfter ?? 1) * 1_000);
        continue;
      }
      const transient = error instanceof ConnectionError || (error instanceof ApiError && error.status >= 500);
      if (!transient) throw error;
      if (attempt >= MAX_TRIES)
        throw new Error(error instanceof ApiError ? `${url} answered ${error.status}: ${error.message}` : `${url} did not answer: ${error.message}`, {
          cause: error,
        });
      await sleep(250 * 2 ** attempt);
    }
  }
}

/**
 * Sends the traffic through the real ingest endpoint with the TypeScript
 * SDK, signed, in batches per provider like a high-volume sender, paced
 * under the tenant's limits; a 429 is waited out for its Retry-After and the
 * same batch sent again (its idempotency keys make that safe). Then the
 * outcomes, through POST /api/v1/outcomes where the server has it, else as
 * events.
 */
export async function sendDemoTraffic(target: DemoTarget, traffic: DemoTraffic, options: SendOptions = {}): Promise<DemoSummary> {
  const started = performance.now();
  const rate = options.eventsPerSecond ?? DEFAULT_EVENTS_PER_SECOND;
  const batchSize = Math.min(MAX_BATCH_EVENTS, Math.max(1, Math.ceil(rate / REQUESTS_PER_SECOND)));
  const summary: DemoSummary = {
    requests: 0,
    envelopes: 0,
    accepted: 0,
    duplicates: 0,
    deadLettered: 0,
    rateLimited: 0,
    outcomes: { recorded: 0, via: 'none' },
    seconds: 0,
  };
  const earshot = new Earshot({ apiKey: target.apiKey, baseUrl: target.url, webhookSecret: target.webhookSecret, maxRetries: 0 });
  let nextAt = performance.now();
  const total = traffic.deliveries.length;

  const sendBatch = async (provider: string, batch: readonly DemoDelivery[]) => {
    const wait = nextAt - performance.now();
    if (wait > 0) await sleep(wait);
    // The next request waits for whichever limit binds: these envelopes' share of the rate, or the request rate.
    nextAt = Math.max(nextAt, performance.now()) + Math.max(batch.length / rate, 1 / REQUESTS_PER_SECOND) * 1_000;
    const envelopes = batch.map((d) => d.envelope as IngestEvent);
    const answer = await persistently(summary, target.url, () => earshot.ingest.send(envelopes, { provider }));
    summary.accepted += answer.accepted;
    summary.duplicates += answer.duplicates;
    summary.deadLettered += answer.deadLettered;
    summary.envelopes += batch.length;
    options.onProgress?.({ envelopesSent: summary.envelopes, envelopesTotal: total, requests: summary.requests, rateLimited: summary.rateLimited });
  };

  const buffers = new Map<string, { batch: DemoDelivery[]; later: DemoDelivery[] }>();
  const flush = async (provider: string, buffer: { batch: DemoDelivery[]; later: DemoDelivery[] }) => {
    await sendBatch(provider, buffer.batch.splice(0));
    buffer.batch.push(...buffer.later.splice(0));
  };
  for (const delivery of traffic.deliveries) {
    const buffer = buffers.get(delivery.provider) ?? { batch: [], later: [] };
    buffers.set(delivery.provider, buffer);
    // A copy goes out in a later request than its original, as a provider's retry does.
    if (buffer.batch.some((d) => d.envelope.idempotency_key === delivery.envelope.idempotency_key)) buffer.later.push(delivery);
    else buffer.batch.push(delivery);
    if (buffer.batch.length >= batchSize) await flush(delivery.provider, buffer);
  }
  for (const [provider, buffer] of buffers) while (buffer.batch.length > 0) await flush(provider, buffer);

  const outcomesApi = target.outcomesUrl ? new Earshot({ apiKey: target.apiKey, baseUrl: target.outcomesUrl, maxRetries: 0 }) : earshot;
  const record = (outcome: OutcomeCreateParams, idempotencyKey: string) =>
    persistently(summary, target.outcomesUrl ?? target.url, () => outcomesApi.outcomes.create(outcome, { idempotencyKey }));
  summary.outcomes = await recordOutcomes(target, traffic.outcomes, record, sendBatch);
  summary.seconds = Math.round((performance.now() - started) / 100) / 10;
  return summary;
}

async function recordOutcomes(
  target: DemoTarget,
  outcomes: readonly DemoOutcome[],
  record: (outcome: OutcomeCreateParams, idempotencyKey: string) => Promise<unknown>,
  sendBatch: (provider: string, batch: readonly DemoDelivery[]) => Promise<void>,
): Promise<DemoSummary['outcomes']> {
  if (outcomes.length === 0) return { recorded: 0, via: 'none' };
  const callId = (o: DemoOutcome) => (target.tenantId ? callIdOf(target.tenantId, o.provider, o.providerCallId) : o.providerCallId);
  let recorded = 0;
  for (const outcome of outcomes) {
    const body: OutcomeCreateParams = {
      id: outcome.id,
      callId: callId(outcome),
      agent: outcome.agent,
      type: outcome.type,
      value: outcome.value,
      source: 'earshot-demo',
      ...(outcome.revenueUsd === null ? {} : { revenueUsd: outcome.revenueUsd }),
    };
    try {
      await record(body, outcome.id);
    } catch (error) {
      if (error instanceof NotFoundError && recorded === 0) break;
      throw error instanceof ApiError ? new Error(`POST /api/v1/outcomes answered ${error.status}: ${error.message}`) : error;
    }
    recorded += 1;
  }
  if (recorded > 0) return { recorded, via: 'POST /api/v1/outcomes' };
  // A server without the query service's write route still takes outcomes as events.
  const asEvents = outcomes.map((o): DemoDelivery => ({
    provider: 'earshot-demo',
    copy: false,
    envelope: {
      type: 'outcome.recorded',
      version: CURRENT_EVENT_VERSION,
      idempotency_key: `demo:${o.id}`,
      occurred_at: new Date().toISOString(),
      data: { outcome_id: o.id, call_id: callId(o), agent: o.agent, outcome_type: o.type, value: o.value, source: 'earshot-demo', revenue_usd: o.revenueUsd },
    } satisfies IncomingEventInput,
  }));
  for (let i = 0; i < asEvents.length; i += MAX_BATCH_EVENTS) await sendBatch('earshot-demo', asEvents.slice(i, i + MAX_BATCH_EVENTS));
  return { recorded: asEvents.length, via: 'ingest' };
}
