import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sql, type ConnectionPool } from '@earshot/db';
import { EVENT_HEADERS } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { createKafkaLog, TOPICS, type EventLog } from '@earshot/log';
import { ADMIN_TOKEN, createTestDatabase, ingestHeaders, kafkaBrokers, readTopic, uniqueNamespace, type TenantCredentials } from '@earshot/testing';
import { cleanEnv, startEarshot, type EarshotProcess } from './e2e/earshot-process';

/** Short, so the hand-over is measured in seconds; production keeps the 15 s default. */
const LEASE_TTL_MS = 3_000;
/** What the lease promises (runAsSingleton): the time to live, plus the third of it between claims. */
const PROMISED_HANDOVER_MS = LEASE_TTL_MS + LEASE_TTL_MS / 3;
/** Alert rounds and period closes every 2 s (30 s and 60 s in production), so "once" is seen over several rounds in seconds. */
const ROUND_MS = 2_000;
const ALERTS = 'earshot:alert-evaluation';
const BILLING = 'earshot:billing-period-close';

/**
 * Two full instances (`earshot serve`, target all) on one Kafka and one
 * PostgreSQL: alert evaluation and period closing run in one of them at a
 * time, so each alert fires once and each period closes once, counted in
 * the log itself, where a duplicate would show even though the projector
 * drops it. Killing the lease holder moves the work to the other instance
 * within the lease's time to live and a third.
 */
describe('two `all` processes', () => {
  let db: ConnectionPool;
  let log: EventLog;
  let drop: () => Promise<void>;
  const processes: EarshotProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-all-two-'));
  let turn = 0;

  const holderOf = async (lease: string): Promise<number | undefined> => {
    const [row] = (await db.query(sql`select holder from leases where name = ${lease} and expires_at > clock_timestamp()`)) as { holder: string }[];
    return row === undefined ? undefined : Number(row.holder.split('/')[1]);
  };
  const api = async <T>(url: string, path: string, key: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${url}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  /** A tenant that has existed since last month, with a rule its slow turns break: one invoice and one alert are due. */
  async function breachingTenant(url: string, name: string): Promise<TenantCredentials> {
    const tenant = await api<TenantCredentials>(url, '/admin/tenants', ADMIN_TOKEN, { method: 'POST', body: JSON.stringify({ name }) });
    await db.query(sql`update tenants set created_at = date_trunc('month', now()) - interval '1 month' + interval '1 day' where id = ${tenant.tenant.id}`);
    await api(url, '/alerts/rules', tenant.apiKey, {
      method: 'POST',
      body: JSON.stringify({
        id: 'p95-latency',
        name: 'p95 latency over 1.2 s',
        metric: 'latency.total_ms.p95',
        agentId: 'agent_support',
        comparison: 'gt',
        threshold: 1_200,
        windowMs: 300_000,
        forMs: 0,
        severity: 'critical',
      }),
    });
    const envelopes = Array.from({ length: 20 }, () => {
      const {
        tenant: _t,
        provider: _p,
        received_at: _r,
        ...incoming
      } = sampleEvent('agent.response.generated', {
        idempotency_key: `turn-${turn++}`,
        occurred_at: new Date().toISOString(),
        data: { turn_id: `t${turn}`, latency: { asr_ms: 150, llm_ms: 2_000, tts_ms: 250, total_ms: 2_400 } },
      });
      return incoming;
    });
    const body = JSON.stringify(envelopes);
    const ingested = await fetch(`${url}/api/v1/webhooks/ingest`, {
      method: 'POST',
      body,
      headers: ingestHeaders({ body, credentials: tenant, timestamp: Math.floor(Date.now() / 1_000) }),
    });
    expect(ingested.status).toBe(202);
    return tenant;
  }

  /** The alert.fired and invoice.issued records the log holds for a tenant. */
  async function logged(tenant: TenantCredentials): Promise<{ fired: number; invoices: number }> {
    const records = (await readTopic(log, TOPICS.events)).filter((r) => r.headers[EVENT_HEADERS.tenant] === tenant.tenant.id);
    const count = (type: string) => records.filter((r) => r.headers[EVENT_HEADERS.type] === type).length;
    return { fired: count('alert.fired'), invoices: count('invoice.issued') };
  }

  async function until(what: string, ms: number, done: () => Promise<boolean>): Promise<void> {
    for (const started = Date.now(); Date.now() - started < ms; await sleep(250)) if (await done()) return;
    throw new Error(`${what}: not within ${ms / 1_000} s`);
  }

  beforeAll(async () => {
    const database = await createTestDatabase('all-two-processes');
    drop = database.drop;
    db = openDatabase({ url: database.url, poolSize: 2, applicationName: 'test-all-two-processes' });
    const namespace = uniqueNamespace('all-two-processes');
    const env = cleanEnv({
      DATABASE_URL: database.url,
      KAFKA_BROKERS: kafkaBrokers().join(','),
      EARSHOT_LOG_NAMESPACE: namespace,
      EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
      EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
      EARSHOT_DATA_DIR: dataDir,
      EARSHOT_LEASE_TTL: `${LEASE_TTL_MS}ms`,
      EARSHOT_ALERT_INTERVAL: `${ROUND_MS}ms`,
      EARSHOT_BILLING_CLOSE_INTERVAL: `${ROUND_MS}ms`,
      LOG_LEVEL: 'warn',
    });
    // One after the other: the first makes the topics and runs the migrations, which the second then finds done.
    processes.push(await startEarshot('all', env));
    processes.push(await startEarshot('all', env));
    log = await createKafkaLog({ brokers: kafkaBrokers(), clientId: 'test-all-two-processes', namespace });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await log?.close();
    await db?.dispose();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('fires each alert once and closes each period once, with both processes running', async () => {
    const [first] = processes as [EarshotProcess, EarshotProcess];
    const tenant = await breachingTenant(first.url, 'Acme');
    await until('the alert fires and the period closes', 60_000, async () => {
      const { fired, invoices } = await logged(tenant);
      return fired > 0 && invoices > 0;
    });
    // More rounds of each, in whichever process holds each lease, append nothing more.
    await sleep(4 * ROUND_MS);
    expect(await logged(tenant)).toEqual({ fired: 1, invoices: 1 });
    expect(processes.map((p) => p.pid)).toContain(await holderOf(ALERTS));
    expect(processes.map((p) => p.pid)).toContain(await holderOf(BILLING));
  }, 120_000);

  it('moves the work to the other process within the lease time to live and a third when the holder is killed', async () => {
    const holderPid = await holderOf(ALERTS);
    const holder = processes.find((p) => p.pid === holderPid);
    const survivor = processes.find((p) => p.pid !== holderPid);
    if (holder === undefined || survivor === undefined)
      throw new Error(`the alert lease is held by ${holderPid}, none of ${processes.map((p) => p.pid).join(', ')}`);
    const held: string[] = [];
    for (const lease of [ALERTS, BILLING]) if ((await holderOf(lease)) === holder.pid) held.push(lease);

    const killed = Date.now();
    await holder.stop('SIGKILL');
    processes.splice(processes.indexOf(holder), 1);
    await until('the survivor takes the alert lease', PROMISED_HANDOVER_MS + 5_000, async () => (await holderOf(ALERTS)) === survivor.pid);
    const handoverMs = Date.now() - killed;
    console.log(JSON.stringify({ figure: 'lease hand-over after SIGKILL', handoverMs, promisedMs: PROMISED_HANDOVER_MS, ttlMs: LEASE_TTL_MS }));
    expect(handoverMs).toBeLessThanOrEqual(PROMISED_HANDOVER_MS + 1_000);
    for (const lease of held) await until(`the survivor takes ${lease}`, PROMISED_HANDOVER_MS + 5_000, async () => (await holderOf(lease)) === survivor.pid);

    // The work itself moved: a new tenant's alert fires and its period closes, once, in the survivor.
    const tenant = await breachingTenant(survivor.url, 'Globex');
    await until('the survivor fires the alert and closes the period', 60_000, async () => {
      const { fired, invoices } = await logged(tenant);
      return fired > 0 && invoices > 0;
    });
    expect(await logged(tenant)).toEqual({ fired: 1, invoices: 1 });
  }, 120_000);
});
