import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret, standardWebhookHeaders } from '@earshot/auth';
import { callIdOf } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { ADMIN_TOKEN, createTestDatabase, ingestHeaders, kafkaBrokers, uniqueNamespace, type TenantCredentials } from '@earshot/testing';
import { cleanEnv, startEarshot, type EarshotProcess } from './e2e/earshot-process';

const earshot = new URL('../packages/cli/bin/earshot.js', import.meta.url).pathname;
const TARGETS = 'gateway,projector,query,keys';

/**
 * A rotation of the master key as an operator runs it: processes on the old
 * key, then on both while `earshot keys rotate-master` re-wraps, then on the
 * new key alone. Events sealed under the old key, the webhook secret and a
 * provider's credentials all still work at the end, and a replay of the log,
 * which was never rewritten, opens the transcripts again.
 */
describe('rotating the master key with the CLI', () => {
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');
  const transcript = `rotate-me-${randomUUID()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-rotation-'));
  let base: Record<string, string>;
  let drop: () => Promise<void>;
  let running: EarshotProcess | undefined;
  let tenant: TenantCredentials;
  let provider: { id: string; secret: string };

  const envWith = (keys: Record<string, string>) => cleanEnv({ ...base, ...keys });
  const restart = async (keys: Record<string, string>) => {
    await running?.stop();
    running = await startEarshot(TARGETS, envWith(keys));
    return running.url;
  };
  const cli = (args: string[], keys: Record<string, string>) => spawnSync(process.execPath, [earshot, ...args], { env: envWith(keys), encoding: 'utf8' });

  async function ingest(url: string, callId: string, text: string): Promise<number> {
    const envelopes = (['call.started', 'transcript.final'] as const).map((type) => {
      const {
        tenant: _t,
        provider: _p,
        received_at: _r,
        ...incoming
      } = sampleEvent(type, {
        idempotency_key: `${callId}:${type}`,
        call: { provider_call_id: callId },
        data: type === 'transcript.final' ? { text } : {},
      });
      return incoming;
    });
    const body = JSON.stringify(envelopes);
    const response = await fetch(`${url}/api/v1/webhooks/ingest`, {
      method: 'POST',
      body,
      headers: ingestHeaders({ body, credentials: tenant, timestamp: Math.floor(Date.now() / 1_000) }),
    });
    return response.status;
  }

  async function callText(url: string, callId: string): Promise<string> {
    for (let waited = 0; waited < 30_000; waited += 250) {
      const response = await fetch(`${url}/api/v1/calls/${callIdOf(tenant.tenant.id, 'vapi', callId)}`, {
        headers: { authorization: `Bearer ${tenant.apiKey}` },
      });
      const text = await response.text();
      if (response.status === 200 && text.includes('transcript')) return text;
      await sleep(250);
    }
    throw new Error(`call ${callId} was not projected within 30 s`);
  }

  async function providerDelivery(url: string, secret = provider.secret): Promise<number> {
    const { tenant: _t, provider: _p, received_at: _r, ...incoming } = sampleEvent('call.started', { idempotency_key: randomUUID() });
    const body = Buffer.from(JSON.stringify(incoming));
    const response = await fetch(`${url}/api/v1/webhooks/providers/standard-webhooks/${provider.id}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...standardWebhookHeaders([secret], randomUUID(), String(Math.floor(Date.now() / 1_000)), body) },
    });
    return response.status;
  }

  beforeAll(async () => {
    const database = await createTestDatabase('master-key-rotation');
    drop = database.drop;
    base = {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: kafkaBrokers().join(','),
      EARSHOT_LOG_NAMESPACE: uniqueNamespace('master-key-rotation'),
      EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
      EARSHOT_DATA_DIR: dataDir,
      EARSHOT_SEAL_EVENTS: 'true',
    };
    const url = await restart({ EARSHOT_MASTER_KEY: oldKey });
    const created = await fetch(`${url}/api/v1/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rotated Ltd' }),
    });
    tenant = (await created.json()) as TenantCredentials;
    const connection = await fetch(`${url}/api/v1/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'standard-webhooks', name: 'in-house' }),
    });
    const issued = (await connection.json()) as { connection: { id: string }; secret: string };
    provider = { id: issued.connection.id, secret: issued.secret };
    expect(await ingest(url, 'call-before', transcript)).toBe(202);
    expect(await callText(url, 'call-before')).toContain(transcript);
    expect(await providerDelivery(url)).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('without the previous key, only checks, and names a value the master key does not open', () => {
    const run = cli(['keys', 'rotate-master'], { EARSHOT_MASTER_KEY: newKey });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/data_keys \S+: wrapped opens under neither the old nor the new master key/);
    expect(cli(['keys', 'rotate-master'], { EARSHOT_MASTER_KEY: oldKey }).stdout).toMatch(
      /^tenants: 1 rows, 0 values re-wrapped, 1 already under the new key$/m,
    );
  }, 240_000);

  it('keeps serving on both keys while it re-wraps, and a second run finds nothing to do', async () => {
    const both = { EARSHOT_MASTER_KEY: newKey, EARSHOT_MASTER_KEY_PREVIOUS: oldKey };
    const url = await restart(both);
    expect(await ingest(url, 'call-during', 'said during the rotation')).toBe(202);
    expect(await providerDelivery(url)).toBe(200);

    const first = cli(['keys', 'rotate-master', '--batch-size', '1'], both);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^data_keys: 1 rows, 1 values re-wrapped, 0 already under the new key$/m);
    expect(first.stdout).toMatch(/^tenants: 1 rows, 1 values re-wrapped, 0 already under the new key$/m);
    expect(first.stdout).toMatch(/^provider_connections: 1 rows, 1 values re-wrapped, 0 already under the new key$/m);

    const again = cli(['keys', 'rotate-master'], both);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^tenants: 1 rows, 0 values re-wrapped, 1 already under the new key$/m);
    expect(again.stdout).not.toMatch(/[1-9]\d* values re-wrapped/);
  }, 240_000);

  it('works on the new key alone: ingest, provider deliveries, and the transcripts sealed before', async () => {
    const url = await restart({ EARSHOT_MASTER_KEY: newKey });
    expect(await ingest(url, 'call-after', 'said after the rotation')).toBe(202);
    expect(await providerDelivery(url)).toBe(200);
    expect(await providerDelivery(url, newWebhookSecret())).toBe(401);
    expect(await callText(url, 'call-after')).toContain('said after the rotation');
    expect(await callText(url, 'call-before')).toContain(transcript);
  }, 120_000);

  it('replays the unchanged log with the new key alone, opening what the old key sealed', async () => {
    await running?.stop();
    running = undefined;
    const replayed = cli(['replay'], { EARSHOT_MASTER_KEY: newKey });
    expect(replayed.status, replayed.stderr).toBe(0);
    const url = await restart({ EARSHOT_MASTER_KEY: newKey });
    expect(await callText(url, 'call-before')).toContain(transcript);
  }, 240_000);
});
