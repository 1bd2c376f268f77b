import { signBody } from '@earshot/auth';
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

export interface DemoProgress {
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
const MAX_BATCH = 500;
const MAX_TRIES = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: unknown;
}

/**
 * Sends the traffic through the real ingest endpoint, signed, in batches per
 * provider like a high-volume sender, paced under the tenant's limits; a 429
 * is waited out for its Retry-After and the same batch sent again (its
 * idempotency keys make that safe). Then the outcomes, through POST
 * /api/v1/outcomes where the server has it, else as events.
 */
export async function sendDemoTraffic(target: DemoTarget, traffic: DemoTraffic, options: SendOptions = {}): Promise<DemoSummary> {
  const started = performance.now();
  const rate = options.eventsPerSecond ?? DEFAULT_EVENTS_PER_SECOND;
  const batchSize = Math.min(MAX_BATCH, Math.max(1, Math.ceil(rate / REQUESTS_PER_SECOND)));
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
  let nextAt = performance.now();
  const total = traffic.deliveries.length;

  const post = async (path: string, body: string, headers: (timestamp: string) => Record<string, string>, origin = target.url): Promise<Answer> => {
    for (let attempt = 1; ; attempt++) {
      summary.requests += 1;
      const timestamp = String(Math.floor(Date.now() / 1000));
      let response: Response;
      try {
        response = await fetch(new URL(path, origin), {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${target.apiKey}`, ...headers(timestamp) },
        });
      } catch (error) {
        if (attempt >= MAX_TRIES) throw new Error(`${target.url} did not answer: ${error instanceof Error ? error.message : String(error)}`);
        await sleep(250 * 2 ** attempt);
        continue;
      }
      const text = await response.text();
      if (response.status === 429) {
        summary.rateLimited += 1;
        await sleep(Math.max(1, Number(response.headers.get('retry-after') ?? '1')) * 1_000);
        continue;
      }
      if (response.status >= 500 && attempt < MAX_TRIES) {
        await sleep(250 * 2 ** attempt);
        continue;
      }
      return { status: response.status, body: text ? JSON.parse(text) : null };
    }
  };

  const sendBatch = async (provider: string, batch: readonly DemoDelivery[]) => {
    const wait = nextAt - performance.now();
    if (wait > 0) await sleep(wait);
    // The next request waits for whichever limit binds: these envelopes' share of the rate, or the request rate.
    nextAt = Math.max(nextAt, performance.now()) + Math.max(batch.length / rate, 1 / REQUESTS_PER_SECOND) * 1_000;
    const body = JSON.stringify(batch.map((d) => d.envelope));
    const answer = await post('/api/v1/webhooks/ingest', body, (timestamp) => ({
      'x-earshot-timestamp': timestamp,
      'x-earshot-signature': signBody(target.webhookSecret, timestamp, Buffer.from(body)),
      'x-earshot-provider': provider,
    }));
    if (answer.status !== 202) throw new Error(`ingest answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    const results = (answer.body as { results: { ok: boolean; duplicate?: boolean }[] }).results;
    for (const result of results) {
      if (!result.ok) summary.deadLettered += 1;
      else if (result.duplicate) summary.duplicates += 1;
      else summary.accepted += 1;
    }
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

  summary.outcomes = await recordOutcomes(target, traffic.outcomes, post, sendBatch);
  summary.seconds = Math.round((performance.now() - started) / 100) / 10;
  return summary;
}

async function recordOutcomes(
  target: DemoTarget,
  outcomes: readonly DemoOutcome[],
  post: (path: string, body: string, headers: (timestamp: string) => Record<string, string>, origin?: string) => Promise<Answer>,
  sendBatch: (provider: string, batch: readonly DemoDelivery[]) => Promise<void>,
): Promise<DemoSummary['outcomes']> {
  if (outcomes.length === 0) return { recorded: 0, via: 'none' };
  const callId = (o: DemoOutcome) => (target.tenantId ? callIdOf(target.tenantId, o.provider, o.providerCallId) : o.providerCallId);
  let recorded = 0;
  for (const outcome of outcomes) {
    const body = JSON.stringify({
      id: outcome.id,
      callId: callId(outcome),
      agent: outcome.agent,
      type: outcome.type,
      value: outcome.value,
      source: 'earshot-demo',
      ...(outcome.revenueUsd === null ? {} : { revenueUsd: outcome.revenueUsd }),
    });
    const answer = await post('/api/v1/outcomes', body, () => ({ 'idempotency-key': outcome.id }), target.outcomesUrl ?? target.url);
    if (answer.status === 404 && recorded === 0) break;
    if (answer.status !== 201) throw new Error(`POST /api/v1/outcomes answered ${answer.status}: ${JSON.stringify(answer.body)}`);
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
  for (let i = 0; i < asEvents.length; i += MAX_BATCH) await sendBatch('earshot-demo', asEvents.slice(i, i + MAX_BATCH));
  return { recorded: asEvents.length, via: 'ingest' };
}
