import autocannon, { type Result } from 'autocannon';
import { signBody } from '@earshot/auth';
import type { Credentials } from './gateway-process';
import type { PacedRequest } from './paced-load';
import type { BenchContext } from './run';

/**
 * A freshly signed request of `batch` new envelopes (a single envelope, not
 * an array, when 1), as a provider would send it: calls of EVENTS_PER_CALL
 * events each, one after another, so they spread over the log's partitions
 * and each call has a data key of its own. The envelopes are spliced from
 * one serialized template, so the load generator's own cost stays small next
 * to the gateway's.
 */
export function signedRequests(credentials: Credentials, batch: number, prefix: string): () => PacedRequest {
  // The idempotency key comes before the call in the template, so the parts fall in that order.
  const parts = JSON.stringify(envelope('KEY', 'CALL')).split(/KEY|CALL/);
  if (parts.length !== 3) throw new Error('the envelope template must hold KEY and CALL once each');
  const [head, middle, tail] = parts as [string, string, string];
  let sent = 0;
  return () => {
    const items: string[] = [];
    for (let i = 0; i < batch; i++, sent++) items.push(`${head}${prefix}-${sent}${middle}${prefix}-call-${Math.floor(sent / EVENTS_PER_CALL)}${tail}`);
    const body = batch === 1 ? (items[0] as string) : `[${items.join(',')}]`;
    const timestamp = String(Math.floor(Date.now() / 1000));
    return {
      body,
      headers: {
        authorization: `Bearer ${credentials.apiKey}`,
        'content-type': 'application/json',
        'x-earshot-timestamp': timestamp,
        'x-earshot-signature': signBody(credentials.webhookSecret, timestamp, Buffer.from(body)),
        'x-earshot-provider': 'vapi',
      },
    };
  };
}

/**
 * An agent's answer in a phone call, with the call block the providers' mappings put on every event (the numbers and
 * the customer, as vapi/events.ts does): with sealing on, the default, its three personal fields and the text are
 * sealed, as a provider's events are.
 */
/** About as many events as a call of 30 turns makes (the projector bench's hold 137). */
const EVENTS_PER_CALL = 100;

function envelope(key: string, callId: string) {
  return {
    type: 'agent.response.generated',
    version: '2026-01-01',
    idempotency_key: key,
    occurred_at: new Date().toISOString(),
    call: {
      provider_call_id: callId,
      agent_id: 'support-agent',
      direction: 'inbound',
      from_number: '+14155550123',
      to_number: '+14155550199',
      customer_id: 'cus_8812',
    },
    data: { turn_id: 'turn_3', latency: { asr_ms: 180, llm_ms: 420, tts_ms: 160, total_ms: 760 }, text: 'Your order ships tomorrow.', model: 'gpt-4o-mini' },
  };
}

/** A closed-loop load at a fixed concurrency: its requests per second are the peak. */
export async function peakLoad(
  context: BenchContext,
  target: string,
  label: string,
  next: () => PacedRequest,
  connections: number,
  seconds: number,
): Promise<Result> {
  let second = 0;
  const options: autocannon.Options = {
    url: `${target}/api/v1/webhooks/ingest`,
    method: 'POST',
    connections,
    duration: seconds,
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  };
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(options, (error: Error | null, done) => (error ? reject(error) : resolve(done)));
    instance.on('tick', () => context.progress(`${label}: ${++second} of ${seconds} s`));
  });
  // Which statuses the non-2xx were, so a refusal under load is told apart from a failure.
  const refused = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, { count }]) => `${status}: ${count}`);
  context.report(
    `${label}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}${refused.length > 0 ? ` (${refused.join(', ')})` : ''}, errors ${result.errors}`,
  );
  return result;
}
