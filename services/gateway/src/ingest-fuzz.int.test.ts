import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@earshot/auth';
import { ErrorBodySchema, PROVIDER_EVENT_TYPES } from '@earshot/contracts';
import { decodeEvent, eventId } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { deadLetters, envelope, ingestHeaders, startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';

/** What an answer says became of each envelope: appended (or a duplicate of one) under an id, or dead-lettered. */
interface Fate {
  ids: string[];
  deadLetterIds: string[];
}

/** Bodies a provider could sign: arbitrary JSON, envelopes with fields replaced or dropped, batches of those, and bytes that are not JSON. */
const jsonBodies = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .record({
      key: fc.string({ minLength: 1, maxLength: 40 }),
      field: fc.constantFrom('type', 'version', 'idempotency_key', 'occurred_at', 'call', 'data', 'extra'),
      value: fc.option(fc.jsonValue(), { nil: undefined }),
    })
    .map(({ key, field, value }) => {
      const fuzzed: Record<string, unknown> = envelope(`fuzz-${key}`);
      if (value === undefined) delete fuzzed[field];
      else fuzzed[field] = value;
      return JSON.stringify(fuzzed);
    }),
  fc
    .array(
      fc.oneof(
        fc.jsonValue(),
        fc.string({ minLength: 1, maxLength: 20 }).map((key) => envelope(`fuzz-batch-${key}`)),
      ),
      { maxLength: 8 },
    )
    .map((batch) => JSON.stringify(batch)),
);
const bodies = fc.oneof(
  jsonBodies,
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

describe('signed webhook routes under arbitrary bodies', () => {
  let gateway: TestGateway;
  let acme: TenantCredentials;

  beforeAll(async () => {
    gateway = await startTestGateway('ingest-fuzz', {
      env: { EARSHOT_INGEST_REQUESTS_PER_MIN: '100000', EARSHOT_INGEST_EVENTS_PER_MIN: '1000000', EARSHOT_KEY_REQUESTS_PER_MIN: '100000' },
    });
    acme = await gateway.createTenant('Acme');
  });
  afterAll(async () => gateway?.stop());

  it('POST /webhooks/ingest answers every signed body 202 or 400 in the Error shape, and every envelope it names is in the events topic or the dead letters', async () => {
    const fates: Fate[] = [];
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const response = await gateway.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks/ingest',
          payload: body,
          headers: ingestHeaders({ body, credentials: acme, timestamp: gateway.clock.seconds() }),
        });
        expect([202, 400]).toContain(response.statusCode);
        const answer = response.json<Record<string, unknown>>();
        if (response.statusCode === 400) {
          const error = ErrorBodySchema.parse(answer);
          expect(error.code).toBe('VALIDATION_ERROR');
          expect(error.deadLetterId).toEqual(expect.any(String));
          fates.push({ ids: [], deadLetterIds: [error.deadLetterId ?? ''] });
          return;
        }
        const results = (Array.isArray(answer.results) ? answer.results : [answer]) as { ok: boolean; id?: string; deadLetterId?: string }[];
        fates.push({
          ids: results.flatMap((r) => (r.ok && r.id ? [r.id] : [])),
          deadLetterIds: results.flatMap((r) => (!r.ok && r.deadLetterId ? [r.deadLetterId] : [])),
        });
        for (const result of results) if (!result.ok) ErrorBodySchema.parse(result);
      }),
      { numRuns: 150, seed: 20261123 },
    );
    const appended = new Set((await gateway.records(TOPICS.events)).map((r) => decodeEvent(r.value)).map((e) => eventId(e.tenant, e.idempotency_key)));
    const lettered = new Set((await deadLetters(gateway)).map((d) => d.id));
    expect(fates.flatMap((f) => f.ids).filter((id) => !appended.has(id))).toEqual([]);
    expect(fates.flatMap((f) => f.deadLetterIds).filter((id) => !lettered.has(id))).toEqual([]);
    expect(fates.some((f) => f.ids.length > 0) && fates.some((f) => f.deadLetterIds.length > 0)).toBe(true);
  });

  it('POST /webhooks/events answers every signed body 200, 400 or 409 in the Error shape, never a server error', async () => {
    const flatEvent = fc.record({
      type: fc.constantFrom(...PROVIDER_EVENT_TYPES),
      agent_id: fc.constant('support-agent'),
      provider_call_id: fc.string({ minLength: 1, maxLength: 20 }),
      latency_ms: fc.nat(),
    });
    const flatBodies = fc.oneof(
      bodies,
      flatEvent.map((event) => JSON.stringify(event)),
      fc
        .record({
          event: flatEvent,
          field: fc.constantFrom('type', 'agent_id', 'provider_call_id', 'latency_ms'),
          value: fc.option(fc.jsonValue(), { nil: undefined }),
        })
        .map(({ event, field, value }) => JSON.stringify({ ...event, [field]: value })),
    );
    // A few keys, so that some come again.
    const keys = fc.option(fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz-3'), { nil: undefined });
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(flatBodies, keys, async (body, key) => {
        const ts = String(gateway.clock.seconds());
        const response = await gateway.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks/events',
          payload: body,
          headers: {
            authorization: `Bearer ${acme.apiKey}`,
            'content-type': 'application/json',
            'x-timestamp': ts,
            'x-signature': signBody(acme.webhookSecret, ts, Buffer.from(body)),
            ...(key ? { 'idempotency-key': key } : {}),
          },
        });
        expect([200, 400, 409]).toContain(response.statusCode);
        if (response.statusCode !== 200) ErrorBodySchema.parse(response.json());
        statuses.add(response.statusCode);
      }),
      { numRuns: 150, seed: 20261123 },
    );
    // The bodies reached every answer, not only the refusals.
    expect([...statuses].sort()).toEqual([200, 400, 409]);
  });
});
