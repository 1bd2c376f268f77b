import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@earshot/contracts';
import { DATABASE_MIGRATIONS, inTenant, migrate, sql, type ConnectionPool } from '@earshot/db';
import type { EventLog } from '@earshot/log';
import { METRICS } from '@earshot/metrics';
import { openTestDatabase, kafkaLog, callScript, logRecords, readModelSnapshot } from '@earshot/testing';
import { createBatchApplier } from './apply-batch';
import { PROJECTOR_MIGRATIONS } from './migration-sets';

const ENDINGS = ['completed', 'failed', 'transferred', 'unanswered'] as const;

const pause = () => new Promise((resolve) => setTimeout(resolve, 10));

async function anyWaitingOnALock(db: ConnectionPool): Promise<boolean> {
  const [row] = (await db.query(
    sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  )) as { waiting: number }[];
  return (row?.waiting ?? 0) > 0;
}

/** Until a connection of this database waits on a row lock (ten seconds at most). */
async function waitingOnALock(db: ConnectionPool): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await pause()) {
    if (await anyWaitingOnALock(db)) return;
  }
  throw new Error('no connection came to wait on a lock');
}

/** Whether a connection of this database comes to wait on a row lock before `work` settles. */
async function waitsOnALock(db: ConnectionPool, work: Promise<unknown>): Promise<boolean> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  work.then(done, done);
  for (; !settled; await pause()) {
    if (await anyWaitingOnALock(db)) return true;
  }
  return false;
}

describe('applying batches to Postgres', () => {
  let db: ConnectionPool;
  let log: EventLog;
  let close: () => Promise<void>;
  // One partition's offsets only grow, across every run of this file.
  let nextOffset = 0n;

  const scriptFor = (tenant: string, ending: (typeof ENDINGS)[number]): StoredEvent[] => [
    ...callScript({ tenant, providerCallId: 'call-1', turns: 5, ending, outcome: true }),
    ...callScript({ tenant, providerCallId: 'call-2', turns: 3, ending: 'completed', startMs: Date.parse('2026-01-08T09:31:10.000Z') }),
    // Turns reported in parts (the turn, its model call, its syntheses), as an OpenTelemetry exporter sends them.
    ...callScript({ tenant, providerCallId: 'call-3', turns: 4, ending, startMs: Date.parse('2026-01-08T09:32:20.000Z'), turnsInParts: true }),
  ];

  async function applyInBatches(events: readonly StoredEvent[], cuts: readonly number[]): Promise<void> {
    const apply = createBatchApplier({ db, log });
    const records = logRecords(events, nextOffset);
    nextOffset += BigInt(records.length);
    const bounds = [...new Set([0, ...cuts.map((c) => c % records.length), records.length])].sort((a, b) => a - b);
    for (let i = 1; i < bounds.length; i++) await apply(records.slice(bounds[i - 1], bounds[i]));
  }

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('apply_batch'));
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('apply-batch');
  });
  afterAll(async () => {
    await log.close();
    await close();
  });

  it('stores identical rows for any permutation, duplicates and batching of the events (property, many seeds)', async () => {
    const expected = new Map<string, Record<string, unknown[]>>();
    for (const ending of ENDINGS) {
      const tenant = randomUUID();
      await applyInBatches(scriptFor(tenant, ending), []);
      expected.set(ending, await readModelSnapshot(db, tenant));
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDINGS).chain((ending) => {
          const count = scriptFor('x', ending).length;
          return fc.record({
            ending: fc.constant(ending),
            order: fc.shuffledSubarray([...Array(count).keys()], { minLength: count, maxLength: count }),
            repeats: fc.array(fc.nat(count - 1), { maxLength: 15 }),
            cuts: fc.array(fc.nat(), { maxLength: 6 }),
          });
        }),
        async ({ ending, order, repeats, cuts }) => {
          const tenant = randomUUID();
          const events = scriptFor(tenant, ending);
          const shuffled = [...order, ...repeats].map((i) => events[i]).filter((e): e is StoredEvent => e !== undefined);
          await applyInBatches(shuffled, cuts);
          expect(await readModelSnapshot(db, tenant)).toEqual(expected.get(ending));
        },
      ),
      { numRuns: 40 },
    );
    // 40 runs of three calls' events into Postgres: about 40 s alone here, over a minute beside the rest of the suite.
  }, 180_000);

  it('skips records below the stored position when the log delivers them again', async () => {
    const tenant = randomUUID();
    const apply = createBatchApplier({ db, log });
    const records = logRecords(scriptFor(tenant, 'completed'), nextOffset);
    nextOffset += BigInt(records.length);
    await apply(records);
    const before = await readModelSnapshot(db, tenant);
    expect(await apply(records.slice(3))).toEqual({ skipped: records.length - 3, applied: 0, duplicates: 0, deadLettered: 0, erased: 0, missing: 0 });
    expect(await readModelSnapshot(db, tenant)).toEqual(before);
  });

  it('counts the offsets between the stored position and a batch that starts beyond it as missing', async () => {
    const tenant = randomUUID();
    const apply = createBatchApplier({ db, log });
    const records = logRecords(scriptFor(tenant, 'completed'), nextOffset);
    nextOffset += BigInt(records.length);
    // The first three never reach the applier: trimmed by retention, or applied into a database since restored.
    expect(await apply(records.slice(3, 10))).toMatchObject({ applied: 7, skipped: 0, missing: 3 });
    expect(await apply(records.slice(10))).toMatchObject({ applied: records.length - 10, missing: 0 });
    expect(await apply(records.slice(5))).toMatchObject({ skipped: records.length - 5, missing: 0 });
  });

  it('keeps each call’s facts with its own row, whatever control characters their text holds', async () => {
    const tenant = randomUUID();
    // U+001E is what the facts of a batch's rows are parted by on their way to Postgres; JSON escapes it inside them.
    const agents = ['agent\u001eone', 'agent\u001f\u001etwo', 'agent three'];
    const events = agents.flatMap((agentId, i) => callScript({ tenant, providerCallId: `call-${i}\u001e`, agentId, turns: 2 }));
    await applyInBatches(events, []);
    const rows: { provider_call_id: string; agent_id: string; facts: string }[] = await inTenant(db, tenant, (tx) =>
      tx.query(sql`select provider_call_id, agent_id, facts from calls order by provider_call_id`),
    );
    expect(rows.map((r) => [r.provider_call_id, r.agent_id])).toEqual(agents.map((agentId, i) => [`call-${i}\u001e`, agentId]));
    for (const row of rows) expect(row.facts).toContain(JSON.stringify(row.agent_id));
  });

  it('applies a batch of several tenants at the first attempt, each as itself', async () => {
    // A batch that fails goes on to retries and then event by event, which would still store every row: only the
    // attempts tell that a batch of tenants was written as it should be.
    const retries: unknown[] = [];
    const apply = createBatchApplier({ db, log, onRetry: (error) => retries.push(error) });
    const tenants = [randomUUID(), randomUUID(), randomUUID()];
    const events = tenants.flatMap((tenant) => scriptFor(tenant, 'completed'));
    const records = logRecords(events, nextOffset);
    nextOffset += BigInt(records.length);
    expect(await apply(records)).toMatchObject({ applied: events.length, deadLettered: 0 });
    expect(retries).toEqual([]);
    for (const tenant of tenants) {
      const counted = await inTenant(db, tenant, (tx) =>
        tx.query(sql`select (select count(*)::int from calls) as calls, (select sum(events_ingested)::int from usage_meters) as events`),
      );
      expect(counted).toEqual([{ calls: 3, events: events.length / tenants.length }]);
    }
  });

  it("takes a tenant's counter tables in one order whatever order its events came in, so batches never deadlock", async () => {
    const tenant = randomUUID();
    const startMs = Date.parse('2026-01-08T10:00:05.000Z');
    await applyInBatches(callScript({ tenant, providerCallId: 'call-1', turns: 2, ending: 'completed', startMs }), []);
    // Another call in the same minute, led by an event that counts only towards the day's meter: its batch's fold meets
    // usage_meters before metric_rollups.
    const events = callScript({ tenant, providerCallId: 'call-2', turns: 2, ending: 'completed', startMs });
    const lead = events.findIndex((e) => e.type === 'transcript.final');
    const batch = logRecords([events[lead] as StoredEvent, ...events.filter((_, i) => i !== lead)], nextOffset);
    nextOffset += BigInt(batch.length);
    const retries: unknown[] = [];
    const apply = createBatchApplier({ db, log, onRetry: (error) => retries.push(error) });
    // Another batch of the tenant, by hand, taking the counters as every batch does now: Postgres runs the CTEs a
    // statement's query does not read last to first, so the day's meter (usage_meters), then the agent minutes.
    const { applying } = await db.tx(async (tx) => {
      await tx.query(sql`select set_config('role', 'earshot_projector', true), set_config('earshot.tenant_id', ${tenant}, true)`);
      await tx.query(sql`update usage_meters set calls = calls`);
      const applying = apply(batch);
      await waitingOnALock(db);
      await tx.query(sql`update metric_rollups set count = count`);
      return { applying };
    });
    expect(await applying).toMatchObject({ applied: batch.length });
    expect(retries).toEqual([]);
  });

  it("adds another partition's batch to a tenant's counters while a batch holding them has yet to commit", async () => {
    const tenant = randomUUID();
    const startMs = Date.parse('2026-01-08T11:00:05.000Z');
    const held = callScript({ tenant, providerCallId: 'call-1', turns: 2, ending: 'completed', startMs });
    await applyInBatches(held, []);
    // The same agent's turns in the same minute, read from another partition.
    const events = callScript({ tenant, providerCallId: 'call-2', turns: 3, ending: 'completed', startMs });
    const batch = logRecords(events, nextOffset, 1);
    nextOffset += BigInt(batch.length);
    const apply = createBatchApplier({ db, log });
    // The first partition's batch, by hand, between its counters (the tenant's day, its agent's minutes) and its commit.
    const { waited, applying } = await db.tx(async (tx) => {
      await tx.query(sql`select set_config('role', 'earshot_projector', true), set_config('earshot.tenant_id', ${tenant}, true)`);
      await tx.query(sql`update usage_meters set calls = calls`);
      await tx.query(sql`update metric_rollups set count = count`);
      const applying = apply(batch);
      return { waited: await waitsOnALock(db, applying), applying };
    });
    expect(waited).toBe(false);
    expect(await applying).toMatchObject({ applied: batch.length });
    const shards = await inTenant(db, tenant, (tx) =>
      tx.query(sql`
        select m.shard, m.turns, u.calls from (select shard, sum(count)::int as turns from metric_rollups where metric = ${METRICS.turns} group by shard) m
        join (select shard, sum(calls)::int as calls from usage_meters group by shard) u using (shard) order by shard`),
    );
    expect(shards).toEqual([
      { shard: 0, turns: 2, calls: 1 },
      { shard: 1, turns: 3, calls: 1 },
    ]);
  });

  it('changes nothing for an event repeated later under the same tenant and idempotency key', async () => {
    const tenant = randomUUID();
    const events = scriptFor(tenant, 'completed');
    await applyInBatches(events, []);
    const before = await readModelSnapshot(db, tenant);
    const apply = createBatchApplier({ db, log });
    const again = logRecords(events.slice(0, 10), nextOffset);
    nextOffset += 10n;
    expect(await apply(again)).toMatchObject({ applied: 0, duplicates: 10 });
    expect(await readModelSnapshot(db, tenant)).toEqual(before);
  });

  it('tries a batch again when another claims one of its events as it does, and applies that event once', async () => {
    const tenant = randomUUID();
    const events = callScript({ tenant, providerCallId: 'call-1', turns: 2, ending: 'completed' });
    const batch = logRecords(events, nextOffset);
    nextOffset += BigInt(batch.length);
    const retries: unknown[] = [];
    const apply = createBatchApplier({ db, log, onRetry: (error) => retries.push(error) });
    const taken = events[3]?.idempotency_key ?? '';
    // Another batch's transaction, by hand: it has claimed one of the events, and commits while this batch waits on it.
    const { applying } = await db.tx(async (tx) => {
      await tx.query(sql`select set_config('role', 'earshot_projector', true), set_config('earshot.tenant_id', ${tenant}, true)`);
      await tx.query(sql`insert into applied_events (tenant_id, idempotency_key) values (${tenant}, ${taken})`);
      const applying = apply(batch);
      await waitingOnALock(db);
      return { applying };
    });
    expect(await applying).toMatchObject({ applied: batch.length - 1, duplicates: 1, deadLettered: 0 });
    // Tried again whole, as a concurrent write: not taken for a bad event and applied one by one.
    expect(retries).toEqual([expect.objectContaining({ name: 'ConcurrentWrite' })]);
    const [claims] = (await inTenant(db, tenant, (tx) => tx.query(sql`select count(*)::int as n from applied_events`))) as { n: number }[];
    expect(claims?.n).toBe(batch.length);
  });
});
