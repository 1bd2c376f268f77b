import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@earshot/config';
import { inTenant, openDatabase, sql, type ConnectionPool } from '@earshot/db';
import { decodeDeadLetter, decodeDelivery, decodeEvent, encodeDeadLetter } from '@earshot/events';
import { gatewayModule, GATEWAY_MIGRATIONS } from '@earshot/gateway';
import { keysModule } from '@earshot/keys';
import { createKafkaLog, TOPICS, type EventLog, type LogRecord } from '@earshot/log';
import { createRuntime, resolveTargets, startModules, type RunningModules } from '@earshot/server';
import { createLogger } from '@earshot/telemetry';
import type { FastifyInstance } from 'fastify';
import {
  createTestDatabase,
  ADMIN_TOKEN,
  envelope,
  ingestHeaders,
  readTopic,
  TestClock,
  type TenantCredentials,
  kafkaBrokers,
  uniqueNamespace,
} from '@earshot/testing';
import { auditModule, AUDIT_MIGRATIONS } from './audit';
import { storeAuditBatch } from './audit-store';

/** Polls until `check` holds: the consumer is asynchronous. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    await sleep(100);
  }
}

describe('audit service', () => {
  const clock = new TestClock();
  let app: FastifyInstance;
  let db: ConnectionPool;
  let reader: EventLog;
  let running: RunningModules;
  let drop: () => Promise<void>;
  let acme: TenantCredentials;
  let globex: TenantCredentials;
  /** What the service logged, one JSON line each: warnings and errors. */
  const logged: string[] = [];

  const admin = (method: 'GET' | 'POST', url: string, token = ADMIN_TOKEN) => app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
  const ingest = (credentials: TenantCredentials, body: unknown) => {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    return app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/ingest',
      payload,
      headers: ingestHeaders({ body: payload, credentials, timestamp: clock.seconds() }),
    });
  };
  const deliveryCount = async () => Number(((await db.query(sql`select count(*)::int as n from deliveries`)) as { n: number }[])[0]?.n);
  const deadLetterRow = async (id: string) =>
    (
      (await db.query(sql`select status, reason, replay_attempts from dead_letters where id = ${id}`)) as {
        status: string;
        reason: string;
        replay_attempts: number;
      }[]
    )[0];

  beforeAll(async () => {
    const database = await createTestDatabase('audit');
    drop = database.drop;
    const namespace = uniqueNamespace('audit');
    const config = loadConfig({
      DATABASE_URL: database.url,
      KAFKA_BROKERS: kafkaBrokers().join(','),
      EARSHOT_LOG_NAMESPACE: namespace,
      LOG_LEVEL: 'warn',
      EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
      EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
    });
    const { runtime, modules } = createRuntime({
      config,
      service: 'test-audit',
      migrations: [...GATEWAY_MIGRATIONS, ...AUDIT_MIGRATIONS],
      now: clock.now,
      logger: createLogger({ level: 'warn', pretty: false, destination: { write: (line: string) => void logged.push(line) } }),
    });
    running = await startModules(resolveTargets(['gateway', 'keys', 'audit'], [...modules, gatewayModule(runtime), keysModule(runtime), auditModule(runtime)]));
    app = runtime.http();
    await app.ready();
    db = openDatabase({ url: database.url, applicationName: 'test-audit-reader' });
    reader = await createKafkaLog({ brokers: kafkaBrokers(), clientId: 'test-audit-reader', namespace });
    const create = async (name: string) =>
      (
        await app.inject({ method: 'POST', url: '/api/v1/admin/tenants', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name } })
      ).json<TenantCredentials>();
    acme = await create('Acme');
    globex = await create('Globex');
  });

  afterAll(async () => {
    await running?.stop();
    await reader?.close();
    await db?.dispose();
    await drop?.();
  });

  it('keeps every delivery, newest first, filterable and paged, for the operator only', async () => {
    expect((await ingest(acme, envelope('a-1'))).statusCode).toBe(202);
    expect((await ingest(acme, envelope('a-1'))).statusCode).toBe(202);
    expect((await ingest(globex, envelope('g-1', { version: '1999-01-01' }))).statusCode).toBe(400);
    await eventually(deliveryCount, (n) => n === 3);

    const all = (await admin('GET', '/api/v1/admin/deliveries')).json<{ items: { tenantId: string; status: string; httpStatus: number; event: string }[] }>();
    expect(all.items.map((d) => d.status).sort()).toEqual(['accepted', 'dead_lettered', 'duplicate']);
    const mine = (await admin('GET', `/api/v1/admin/deliveries?tenantId=${acme.tenant.id}&outcome=duplicate`)).json<{
      items: { tenantId: string; httpStatus: number; event: string }[];
    }>();
    expect(mine.items).toEqual([expect.objectContaining({ tenantId: acme.tenant.id, httpStatus: 202, event: 'call.started' })]);

    const first = (await admin('GET', '/api/v1/admin/deliveries?limit=2')).json<{ items: { id: string }[]; nextCursor: string }>();
    const second = (await admin('GET', `/api/v1/admin/deliveries?limit=2&cursor=${first.nextCursor}`)).json<{
      items: { id: string }[];
      nextCursor: string | null;
    }>();
    expect(first.items).toHaveLength(2);
    expect(second).toMatchObject({ items: [expect.anything()], nextCursor: null });
    expect(new Set([...first.items, ...second.items].map((d) => d.id)).size).toBe(3);

    expect((await admin('GET', '/api/v1/admin/deliveries', acme.apiKey)).json()).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    const bad = await admin('GET', '/api/v1/admin/deliveries?limit=0&outcome=lost');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      fields: expect.arrayContaining([expect.objectContaining({ path: 'outcome' }), expect.objectContaining({ path: 'limit' })]),
    });
    expect((await admin('GET', '/api/v1/admin/deliveries?cursor=nonsense')).json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('shows a tenant only its own deliveries through tenant_deliveries', async () => {
    await eventually(deliveryCount, (n) => n >= 3);
    const seen = await inTenant(db, acme.tenant.id, (tx) => tx.query(sql`select tenant_id, event, status, http_status, duration_ms from tenant_deliveries`));
    expect(seen.length).toBeGreaterThan(0);
    for (const row of seen) expect(row).toMatchObject({ tenant_id: acme.tenant.id, event: 'call.started' });
  });

  it('replays a dead letter that fails again: it stays held under its id with the new reason', async () => {
    const answer = await ingest(globex, envelope('g-2', { call: { agent_id: 'x' } }));
    const deadLetterId = answer.json<{ deadLetterId: string }>().deadLetterId;
    await eventually(
      () => deadLetterRow(deadLetterId),
      (row) => row !== undefined,
    );

    const replay = await admin('POST', `/api/v1/admin/dead-letters/${deadLetterId}/replay`);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', deadLetterId, fields: [{ path: 'call.provider_call_id' }] });
    expect(await deadLetterRow(deadLetterId)).toMatchObject({ status: 'held', replay_attempts: 1 });
    const copies = (await readTopic(reader, TOPICS.deadLetters)).map((r) => decodeDeadLetter(r.value)).filter((d) => d.id === deadLetterId);
    expect(copies).toHaveLength(2);
    await eventually(
      () => db.query(sql`select count(*)::int as n from dead_letters where id = ${deadLetterId}`),
      (rows) => rows[0]?.n === 1,
    );
    const listed = (await admin('GET', `/api/v1/admin/dead-letters?tenantId=${globex.tenant.id}&status=held`)).json<{
      items: { id: string; reason: string; body: string }[];
    }>();
    expect(listed.items.find((d) => d.id === deadLetterId)).toMatchObject({
      reason: expect.stringContaining('call.provider_call_id'),
      body: expect.stringContaining('"g-2"'),
    });
  });

  it('replays a dead letter whose cause is fixed: the event is appended once, the letter marked replayed', async () => {
    // As left by an older gateway that wrongly refused a valid envelope.
    const id = randomUUID();
    const body = Buffer.from(JSON.stringify(envelope('fixed-1')));
    await reader.append([
      {
        topic: TOPICS.deadLetters,
        key: acme.tenant.id,
        value: encodeDeadLetter({
          id,
          tenant: acme.tenant.id,
          provider: 'retell',
          received_at: clock.now().toISOString(),
          source: 'gateway',
          reason: 'a validation bug',
          fields: [],
          body: new Uint8Array(body),
          event_type: 'call.started',
          idempotency_key: 'fixed-1',
          topic: null,
          partition: null,
          offset: null,
          sealed_with: null,
        }),
      },
    ]);
    await eventually(
      () => deadLetterRow(id),
      (row) => row !== undefined,
    );
    const before = (await readTopic(reader, TOPICS.events)).length;

    const replay = await admin('POST', `/api/v1/admin/dead-letters/${id}/replay`);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ ok: true, deadLetterId: id, status: 'replayed', results: [{ ok: true, duplicate: false }] });
    const again = await admin('POST', `/api/v1/admin/dead-letters/${id}/replay`);
    expect(again.json()).toMatchObject({ ok: true, results: [{ ok: true, duplicate: true }] });

    const events = (await readTopic(reader, TOPICS.events)).map((r) => decodeEvent(r.value));
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({ tenant: acme.tenant.id, provider: 'retell', idempotency_key: 'fixed-1' });
    expect(await deadLetterRow(id)).toMatchObject({ status: 'replayed', replay_attempts: 2 });
    const read = (await admin('GET', `/api/v1/admin/dead-letters/${id}`)).json<{ deadLetter: { replayedEventIds: string[] } }>();
    expect(read.deadLetter.replayedEventIds).toHaveLength(2);
  });

  it('lists a dead letter whose sealed body was altered as unreadable, logs it, and refuses to replay it (was a 500 for the page)', async () => {
    const initech = (
      await app.inject({ method: 'POST', url: '/api/v1/admin/tenants', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Initech' } })
    ).json<TenantCredentials>();
    const ids: string[] = [];
    for (const name of ['altered', 'renamed', 'intact']) {
      const answer = await ingest(
        initech,
        envelope(`corrupt-${name}`, { version: '1999-01-01', call: { provider_call_id: `call-${name}`, agent_id: 'a', customer_id: `text-${name}` } }),
      );
      expect(answer.statusCode).toBe(400);
      ids.push(answer.json<{ deadLetterId: string }>().deadLetterId);
    }
    const [altered, renamed, intact] = ids as [string, string, string];
    const stored = async (id: string) =>
      ((await db.query(sql`select body, sealed_with from dead_letters where id = ${id}`)) as { body: Buffer; sealed_with: string | null }[])[0];
    for (const id of ids)
      await eventually(
        () => stored(id),
        (row) => row !== undefined,
      );

    // As the superuser, behind the service's back: one body's sealed bytes altered, one made to name another key.
    const sealed = (await stored(altered))?.body.toString('utf8') ?? '';
    expect(sealed).toMatch(/^sealed:v1:dk_/);
    const at = sealed.length - 10;
    const flipped = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    await db.query(sql`update dead_letters set body = ${Buffer.from(flipped)} where id = ${altered}`);
    const other = (await stored(renamed))?.body.toString('utf8').replace(/^sealed:v1:[^:]+:/, 'sealed:v1:dk_another:') ?? '';
    await db.query(sql`update dead_letters set body = ${Buffer.from(other)} where id = ${renamed}`);

    const unreadable = { unreadable: true, erased: false, body: null, bodyBase64: null };
    const page = await admin('GET', `/api/v1/admin/dead-letters?tenantId=${initech.tenant.id}`);
    expect(page.statusCode).toBe(200);
    const items = new Map(page.json<{ items: { id: string }[] }>().items.map((d) => [d.id, d]));
    expect(items.get(altered)).toMatchObject(unreadable);
    expect(items.get(renamed)).toMatchObject(unreadable);
    expect(items.get(intact)).toMatchObject({ unreadable: false, erased: false, body: expect.stringContaining('text-intact') });

    const one = await admin('GET', `/api/v1/admin/dead-letters/${altered}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ ok: true, deadLetter: { id: altered, ...unreadable } });

    const replay = await admin('POST', `/api/v1/admin/dead-letters/${altered}/replay`);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', error: expect.stringContaining(`dead letter ${altered} cannot be replayed`) });
    expect(await deadLetterRow(altered)).toMatchObject({ status: 'held', replay_attempts: 0 });

    const errors = logged.map((line) => JSON.parse(line) as { level: string; deadLetterId?: string }).filter((entry) => entry.level === 'error');
    expect(new Set(errors.flatMap((e) => e.deadLetterId ?? []))).toEqual(new Set([altered, renamed]));
  });

  it('answers 404 for an unknown dead letter', async () => {
    const response = await admin('POST', `/api/v1/admin/dead-letters/${randomUUID()}/replay`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('stores a re-delivered batch once: the position commits with the rows', async () => {
    const records: LogRecord[] = await readTopic(reader, TOPICS.deliveries);
    const partitions = new Set(records.map((r) => r.partition));
    // Counted by id: the gateway appends a delivery after it answers, so the service may still be storing earlier tests' last ones.
    const ids = records.map((r) => decodeDelivery(r.value).id);
    const stored = async () => ((await db.query(sql`select count(*)::int as n from deliveries where id = any(${ids}::text[])`)) as { n: number }[])[0]?.n;
    const before = await eventually(stored, (n) => n === ids.length);
    for (const batch of [...partitions].map((p) => records.filter((r) => r.partition === p))) {
      const outcome = await storeAuditBatch(db, batch, () => undefined);
      expect(outcome).toMatchObject({ skipped: batch.length, deliveries: 0 });
    }
    expect(await stored()).toBe(before);
  });
});
