import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKafka, stopKafka } from '@earshot/testing';
import { envelope, ingestHeaders, startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';

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
    gateway = await startTestGateway('outage', { brokers: [`127.0.0.1:${paths.port}`], options: { appendTimeoutMs: 3_000 } });
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

  it('answers 503 with Kafka stopped, acknowledging nothing, and accepts again by itself once Kafka is back', async () => {
    expect((await send('before-outage')).statusCode).toBe(202);

    await stopKafka(paths.stateDir);
    const during = await send('during-outage');
    expect(during.statusCode).toBe(503);
    expect(during.json()).toMatchObject({ ok: false, code: 'UNAVAILABLE' });

    await startKafka(paths, () => undefined);
    await expect.poll(async () => (await send(`after-outage-${Date.now()}`)).statusCode, { timeout: 120_000, interval: 1_000 }).toBe(202);
    // The refused envelope's key was released: its retry is accepted as new, not answered from a claim that never completed.
    const retry = await send('during-outage');
    expect(retry.statusCode).toBe(202);
    expect(retry.json().ok).toBe(true);
  }, 240_000);
});
