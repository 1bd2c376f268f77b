import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, inTenant, migrate, sql, type ConnectionPool } from '@earshot/db';
import { decodeDeadLetter, callIdOf } from '@earshot/events';
import { TOPICS, type EventLog, type LogRecord } from '@earshot/log';
import { sampleEvent } from '@earshot/events/samples';
import { openTestDatabase, kafkaLog, appendEvents, callScript, waitUntilCaughtUp } from '@earshot/testing';
import { startProjector } from './projector';
import { PROJECTOR_MIGRATIONS } from './store/migration-sets';

describe('projector on the real broker and Postgres', () => {
  let db: ConnectionPool;
  let log: EventLog;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('projector'));
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('projector');
  });
  afterAll(async () => {
    await log.close();
    await close();
  });

  it('projects a 30-turn call into calls, turns, transcripts, traces, rollups and usage', async () => {
    const tenant = randomUUID();
    await appendEvents(log, callScript({ tenant, providerCallId: 'call-happy', outcome: true }));
    const projector = await startProjector({ db, log });
    await waitUntilCaughtUp(db, log);
    await projector.stop();

    const callId = callIdOf(tenant, 'vapi', 'call-happy');
    await inTenant(db, tenant, async (tx) => {
      const [call] = await tx.query(sql`select * from calls where id = ${callId}`);
      expect(call).toMatchObject({ status: 'completed', agent_id: 'agent_support', turn_count: 30, tool_call_count: 6, interruptions: 3 });
      expect(call.latency_total_ms).toBeGreaterThan(0);
      expect(await tx.query(sql`select count(*)::int as n from turns where call_id = ${callId}`)).toEqual([{ n: 30 }]);
      expect(await tx.query(sql`select count(*)::int as n from transcripts where call_id = ${callId} and is_final`)).toEqual([{ n: 60 }]);
      expect(await tx.query(sql`select count(*)::int as n from traces where call_id = ${callId} and kind = 'tool_call' and status = 'completed'`)).toEqual([
        { n: 6 },
      ]);
      expect(await tx.query(sql`select count(*)::int as n from outcomes`)).toEqual([{ n: 1 }]);
      const [turns] = await tx.query(
        sql`select sum(count)::int as n, earshot_sketch_quantile(earshot_sketch_union(sketch), 0.5) as p50 from metric_rollups where metric = 'turn.latency.total_ms'`,
      );
      expect(turns.n).toBe(30);
      const totals = (await tx.query(sql`select total_ms from turns order by total_ms`)).map((r: { total_ms: number }) => r.total_ms);
      // The sketch's p50 is the value of rank 0.5 * (n - 1), within 1%.
      const exact = totals[Math.floor(0.5 * (totals.length - 1))] ?? 0;
      expect(Math.abs(turns.p50 - exact) / exact).toBeLessThanOrEqual(0.01);
      const [usage] = await tx.query(sql`select sum(calls)::int as calls, sum(events_ingested)::int as events from usage_meters`);
      expect(usage.calls).toBe(1);
    });
  });

  it('sends a poison event to the dead-letter topic with its reason and projects the next events', async () => {
    const tenant = randomUUID();
    const [first, , next] = callScript({ tenant, providerCallId: 'call-poison', turns: 1 });
    if (!first || !next) throw new Error('script too short');
    // Postgres cannot store a NUL character in text or jsonb: the database refuses this event on every try.
    const unstorable = sampleEvent('transcript.final', {
      tenant,
      idempotency_key: 'nul-text',
      call: { provider_call_id: 'call-poison', agent_id: 'agent_support' },
      data: { text: 'bad \u0000 byte' },
    });
    await log.append([{ topic: TOPICS.events, key: `${tenant}:call-poison`, value: Buffer.from('not an avro message'), headers: { tenant } }]);
    await appendEvents(log, [first, unstorable, next]);
    const projector = await startProjector({ db, log, onRetry: () => undefined });
    await waitUntilCaughtUp(db, log);
    await projector.stop();

    const deadLetters: LogRecord[] = [];
    await log.replay({ topics: [TOPICS.deadLetters], from: 'earliest', onBatch: async (records) => void deadLetters.push(...records) });
    const mine = deadLetters.map((r) => decodeDeadLetter(r.value)).filter((d) => d.tenant === tenant);
    expect(mine.map((d) => ({ source: d.source, topic: d.topic, key: d.idempotency_key }))).toEqual([
      { source: 'projector', topic: TOPICS.events, key: null },
      { source: 'projector', topic: TOPICS.events, key: 'nul-text' },
    ]);
    expect(mine[0]?.reason).toMatch(/EventCodecError/);
    expect(mine[1]?.reason).toMatch(/after 3 tries/);
    const callId = callIdOf(tenant, 'vapi', 'call-poison');
    const [call] = await inTenant(db, tenant, (tx) => tx.query(sql`select facts::jsonb->>'startedAt' as started from calls where id = ${callId}`));
    expect(call?.started).toBe(next.occurred_at);
  });

  it('shows a tenant only its own rows in every table, and a transaction with no tenant nothing', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    // Every tenant read model gets rows of both tenants: the calls' tables from the scripts, the operations tables from their events.
    const operations = (tenant: string) =>
      (['incident.created', 'deployment.recorded', 'alert.fired', 'alert.rule.changed', 'invoice.issued', 'billing.plan.changed'] as const).map((type) =>
        sampleEvent(type, { tenant }),
      );
    await appendEvents(log, [
      ...callScript({ tenant: a, providerCallId: 'call-a', turns: 2, outcome: true }),
      ...callScript({ tenant: b, providerCallId: 'call-b', turns: 2, outcome: true }),
      ...operations(a),
      ...operations(b),
    ]);
    const projector = await startProjector({ db, log });
    await waitUntilCaughtUp(db, log);
    await projector.stop();

    const tables: string[] = (await db.query(sql`select tablename from pg_tables where schemaname = 'public' and rowsecurity`)).map(
      (r: { tablename: string }) => r.tablename,
    );
    expect(tables).toEqual(
      expect.arrayContaining([
        'calls',
        'turns',
        'transcripts',
        'traces',
        'outcomes',
        'incidents',
        'deployments',
        'alerts',
        'alert_rules',
        'billing_invoices',
        'billing_plans',
        'metric_rollups',
        'usage_meters',
        'applied_events',
      ]),
    );
    for (const table of tables) {
      const seenByA: { tenant_id: string }[] = await inTenant(db, a, (tx) => tx.query(sql`select tenant_id from ${sql.ident(table)}`));
      // The query service's folder fills the metric folds; the projector alone leaves them empty.
      const foldedLater = table === 'metric_rollup_folds' || table === 'metric_rollup_folded';
      expect((seenByA.length > 0 || foldedLater) && seenByA.every((r) => r.tenant_id === a), table).toBe(true);
      const unscoped = await db.tx(async (tx) => {
        await tx.query(sql`set local role earshot_app`);
        return tx.query(sql`select * from ${sql.ident(table)}`);
      });
      expect(unscoped, table).toEqual([]);
    }
    const forced: { relname: string }[] = await db.query(
      sql`select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' and relrowsecurity and not relforcerowsecurity`,
    );
    expect(forced).toEqual([]);
    await expect(
      db.tx(async (tx) => {
        await tx.query(sql`set local role earshot_projector; select set_config('earshot.tenant_id', ${a}, true)`);
        await tx.query(sql`update calls set agent_id = 'hijacked' where tenant_id = ${b}`);
        return tx.query(sql`select count(*)::int as n from calls where agent_id = 'hijacked'`);
      }),
    ).resolves.toEqual([{ n: 0 }]);
  });
});
