import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaLog, TOPICS, type EventLog } from '@earshot/log';
import {
  createTestDatabase,
  ADMIN_TOKEN,
  envelope,
  ingestHeaders,
  type TenantCredentials,
  kafkaBrokers,
  recordFigure,
  uniqueNamespace,
} from '@earshot/testing';

const earshot = new URL('../packages/cli/bin/earshot.js', import.meta.url).pathname;
const TENANT_REQUESTS_PER_MIN = 60;

/** Three real `earshot serve --target=gateway` processes on one database and one log namespace. */
describe('three gateway processes', () => {
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  let env: Record<string, string>;
  let reader: EventLog;
  let drop: () => Promise<void>;
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-gateways-'));

  beforeAll(async () => {
    const database = await createTestDatabase('two-gateways');
    drop = database.drop;
    const namespace = uniqueNamespace('two-gateways');
    env = {
      ...(process.env as Record<string, string>),
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      KAFKA_BROKERS: kafkaBrokers().join(','),
      EARSHOT_LOG_NAMESPACE: namespace,
      EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
      EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
      EARSHOT_DATA_DIR: dataDir,
      EARSHOT_INGEST_REQUESTS_PER_MIN: String(TENANT_REQUESTS_PER_MIN),
    };
    for (let i = 0; i < 3; i++) {
      // With the keys service, whose operator route creates the tenants.
      const child = spawn(process.execPath, [earshot, 'serve', '--target=gateway,keys', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      urls.push(await listeningUrl(child));
    }
    reader = await createKafkaLog({ brokers: kafkaBrokers(), clientId: 'test-two-gateways-reader', namespace });
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await reader?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const createTenant = (name: string): TenantCredentials => {
    const run = spawnSync(process.execPath, [earshot, 'tenant', 'create', '--name', name, '--json', '--url', urls[0] ?? ''], { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`earshot tenant create failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as TenantCredentials;
  };

  const send = async (url: string, credentials: TenantCredentials, key: string) => {
    const body = JSON.stringify(envelope(key));
    const response = await fetch(`${url}/api/v1/webhooks/ingest`, {
      method: 'POST',
      body,
      headers: ingestHeaders({ body, credentials, timestamp: Math.floor(Date.now() / 1000) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  };

  const eventsStored = async () => (await reader.ends(TOPICS.events)).reduce((sum, p) => sum + Number(p.end), 0);

  it('creates a tenant with the CLI, through the operator API', () => {
    const created = createTenant('Acme');
    expect(created.apiKey).toMatch(/^ear_live_/);
    expect(created.tenant.name).toBe('Acme');
  });

  it('appends 50 concurrent copies sent to all three processes exactly once', async () => {
    const tenant = createTenant('Duplicates Inc');
    const before = await eventsStored();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => send(urls[i % urls.length] ?? '', tenant, 'across-processes')));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(202));
    expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await eventsStored()).toBe(before + 1);
  });

  it('shares the per-tenant limit: what two processes admitted counts in the third', async ({ task }) => {
    const tenant = createTenant('Limited Ltd');
    // Keep the test inside one one-minute window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 35_000) await sleep(60_000 - intoMinute + 100);
    const [first = '', second = '', third = ''] = urls;
    for (let i = 0; i < 25; i++) expect((await send(first, tenant, `limit-a-${i}`)).status).toBe(202);
    // Longer than the 200 ms sync interval, so the others have seen each process's count.
    await sleep(1_000);
    const fromSecond: number[] = [];
    for (let i = 0; i < 20; i++) fromSecond.push((await send(second, tenant, `limit-b-${i}`)).status);
    expect(fromSecond).toEqual(Array(20).fill(202));
    await sleep(1_000);
    const fromThird: number[] = [];
    for (let i = 0; i < 16; i++) fromThird.push((await send(third, tenant, `limit-c-${i}`)).status);
    expect(fromThird.filter((s) => s === 202)).toHaveLength(TENANT_REQUESTS_PER_MIN - 45);
    expect(fromThird.at(-1)).toBe(429);
    const limited = await send(third, tenant, 'limit-c-last');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.headers.get('ratelimit-limit')).toBe(String(TENANT_REQUESTS_PER_MIN));
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    await sleep(1_000);
    for (const [i, url] of [first, second].entries()) expect((await send(url, tenant, `limit-last-${i}`)).status).toBe(429);
    recordFigure(
      task,
      `3 processes admitted 25 + 20 + ${fromThird.filter((s) => s === 202).length} of ${TENANT_REQUESTS_PER_MIN}/min; then 429 with Retry-After ${limited.headers.get('retry-after') ?? ''} s`,
    );
  }, 120_000);
});

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`earshot serve exited with ${code}: ${output}`)));
  });
}
