import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:http2';
import { TOPICS } from '@earshot/log';
import { OTLP_MESSAGES } from '@earshot/otlp';
import { recordFigure, startKafka, stopKafka } from '@earshot/testing';
import { envelope, grpcCall, grpcMessage, ingestHeaders, startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';

// A broker of this test's own: the shared one must never be stopped.
const paths = {
  cacheDir: resolve(new URL('../../../.cache', import.meta.url).pathname),
  stateDir: mkdtempSync(join(tmpdir(), 'earshot-outage-')),
  port: 20_000 + 2 * Math.floor(Math.random() * 4_000),
};

describe('ingest while Kafka is down', () => {
  let gateway: TestGateway;
  let acme: TenantCredentials;

  beforeAll(async () => {
    await startKafka(paths, () => undefined);
    gateway = await startTestGateway('outage', {
      brokers: [`127.0.0.1:${paths.port}`],
      options: { appendTimeoutMs: 3_000 },
      env: { EARSHOT_INGEST_REQUESTS_PER_MIN: '100000', EARSHOT_INGEST_EVENTS_PER_MIN: '1000000', EARSHOT_KEY_REQUESTS_PER_MIN: '100000' },
    });
    acme = await gateway.createTenant('Acme');
  }, 180_000);
  afterAll(async () => {
    await startKafka(paths, () => undefined);
    await gateway?.stop();
    await stopKafka(paths.stateDir);
    rmSync(paths.stateDir, { recursive: true, force: true });
  }, 180_000);

  const send = (key: string) => {
    const body = JSON.stringify(envelope(key));
    return gateway.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/ingest',
      payload: body,
      headers: ingestHeaders({ body, credentials: acme, timestamp: gateway.clock.seconds() }),
    });
  };

  /** A LiveKit session span over OTLP/gRPC: its call's start and end are appended. */
  const exportOverGrpc = async () => {
    const span = { traceId: Buffer.alloc(16, 0xab), spanId: Buffer.alloc(8, 0xcd), name: 'agent_session', startTimeUnixNano: '1772445540000000000' };
    const request = { resourceSpans: [{ scopeSpans: [{ scope: { name: 'livekit-agents' }, spans: [{ ...span, endTimeUnixNano: '1772445600000000000' }] }] }] };
    const session = connect(gateway.grpcOrigin);
    try {
      const message = grpcMessage(OTLP_MESSAGES.traceRequest.encode(OTLP_MESSAGES.traceRequest.fromObject(request)).finish());
      return await grpcCall(session, '/opentelemetry.proto.collector.trace.v1.TraceService/Export', message, { authorization: `Bearer ${acme.apiKey}` });
    } finally {
      session.close();
    }
  };

  it('answers 503 with Kafka stopped, acknowledging nothing, and accepts again by itself once Kafka is back', async () => {
    expect((await send('before-outage')).statusCode).toBe(202);

    await stopKafka(paths.stateDir);
    const during = await send('during-outage');
    expect(during.statusCode).toBe(503);
    expect(during.json()).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
    // OTLP/gRPC says the same as gRPC: UNAVAILABLE, which exporters retry.
    expect(await exportOverGrpc()).toMatchObject({ status: 200, grpcStatus: '14' });

    await startKafka(paths, () => undefined);
    await expect.poll(async () => (await send(`after-outage-${Date.now()}`)).statusCode, { timeout: 120_000, interval: 1_000 }).toBe(202);
    // The refused envelope was stored once the broker was back (its retry gets that answer), or its key was released (accepted
    // as new): either way never answered from a claim that never completed.
    const retry = await send('during-outage');
    expect(retry.statusCode).toBe(202);
    expect(retry.json().ok).toBe(true);
  }, 240_000);

  it('keeps every key once through a broker restart during sends: no duplicate event, none lost', async ({ task }) => {
    const keys = Array.from({ length: 60 }, (_, i) => `restart-${i}`);
    const statuses = new Map<string, number>();
    const sending = (async () => {
      for (let wave = 0; wave < keys.length; wave += 5) {
        const batch = keys.slice(wave, wave + 5);
        const answers = await Promise.all(batch.map((key) => send(key)));
        batch.forEach((key, i) => statuses.set(key, answers[i]?.statusCode ?? 0));
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await stopKafka(paths.stateDir);
    await startKafka(paths, () => undefined);
    await sending;
    const refused = [...statuses].filter(([, status]) => status !== 202).length;
    // A provider retries what was not acknowledged, and may resend what was (an answer lost on the way): each is one event.
    for (const key of keys) await expect.poll(async () => (await send(key)).statusCode, { timeout: 120_000, interval: 500 }).toBe(202);
    const copies = new Map<string, number>();
    for (const record of await gateway.records(TOPICS.events)) {
      const key = record.headers['idempotency-key'] ?? '';
      if (key.startsWith('restart-')) copies.set(key, (copies.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(keys.filter((key) => copies.get(key) !== 1).map((key) => [key, copies.get(key) ?? 0]))).toEqual({});
    recordFigure(task, `${keys.length} keys, ${refused} refused during the restart and retried: each in the log exactly once`);
  }, 300_000);
});
