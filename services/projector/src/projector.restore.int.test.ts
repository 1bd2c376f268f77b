import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, sql, type ConnectionPool } from '@earshot/db';
import { TOPICS, type EventLog } from '@earshot/log';
import { openTestDatabase, kafkaLog, appendEvents, callScript, waitUntilCaughtUp, readModelSnapshot } from '@earshot/testing';
import { startProjector } from './projector';
import type { BatchOutcome } from './store/apply-batch';
import { PROJECTOR_MIGRATIONS } from './store/migration-sets';

const tenant = randomUUID();
const calls = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) =>
    callScript({ tenant, providerCallId: `call-${from + i}`, turns: 4, startMs: Date.parse('2026-01-08T09:30:00Z') + (from + i) * 5_000 }),
  ).flat();

async function publicTables(db: ConnectionPool): Promise<string[]> {
  const rows = (await db.query(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)) as { tablename: string }[];
  return rows.map((r) => r.tablename);
}

/** The backup: every table of the public schema copied into the schema `backup`. */
async function backUp(db: ConnectionPool): Promise<void> {
  const tables = await publicTables(db);
  await db.tx(async (tx) => {
    await tx.query(sql`create schema backup`);
    for (const table of tables) await tx.query(sql`create table backup.${sql.ident(table)} as select * from public.${sql.ident(table)}`);
  });
}

/** The restore: every table's rows replaced by the backup's. */
async function restore(db: ConnectionPool): Promise<void> {
  const tables = await publicTables(db);
  await db.tx(async (tx) => {
    // Foreign keys are checked by triggers: off while the tables are refilled in no particular order.
    await tx.query(sql`set local session_replication_role = replica`);
    for (const table of tables) {
      await tx.query(sql`delete from public.${sql.ident(table)}`);
      await tx.query(sql`insert into public.${sql.ident(table)} overriding system value select * from backup.${sql.ident(table)}`);
    }
  });
}

interface Stores {
  restored: ConnectionPool;
  reference: ConnectionPool;
  log: EventLog;
}

/** A projector database to back up and restore, another projected cleanly from the same log to compare it with, and the log. */
function withStores(label: string): () => Stores {
  let stores: Stores | undefined;
  const opened: { close: () => Promise<void> }[] = [];
  beforeAll(async () => {
    const [restored, reference] = await Promise.all([openTestDatabase(`${label}_restored`), openTestDatabase(`${label}_reference`)]);
    opened.push(restored, reference);
    for (const { db } of [restored, reference]) await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    stores = { restored: restored.db, reference: reference.db, log: await kafkaLog(label.replaceAll('_', '-')) };
  });
  afterAll(async () => {
    await stores?.log.close();
    for (const database of opened) await database.close();
  });
  return () => {
    if (!stores) throw new Error('the stores open before the tests');
    return stores;
  };
}

async function expectLikeReference({ restored, reference, log }: Stores, callCount: number, missing: readonly number[]): Promise<void> {
  const clean = await startProjector({ db: reference, log, group: 'projector-reference' });
  await waitUntilCaughtUp(reference, log);
  await clean.stop();
  const rows = await readModelSnapshot(restored, tenant);
  expect(rows.calls).toHaveLength(callCount);
  expect(rows).toEqual(await readModelSnapshot(reference, tenant));
  expect(missing.reduce((sum, n) => sum + n, 0)).toBe(0);
}

describe('a projector database restored to an older position than the consumer group', () => {
  const stores = withStores('projector_restore');

  it('reads again from its own positions what the restore lost, missing nothing', async () => {
    const { restored, log } = stores();
    const project = async (missing: number[]) => {
      const projector = await startProjector({ db: restored, log, onBatch: (outcome) => void missing.push(outcome.missing) });
      await waitUntilCaughtUp(restored, log);
      await projector.stop();
    };
    const missing: number[] = [];
    await appendEvents(log, calls(0, 8));
    await project(missing);
    await backUp(restored);
    // Applied, and committed to the group, after the backup: lost by the restore.
    await appendEvents(log, calls(8, 8));
    await project(missing);
    await restore(restored);

    missing.splice(0);
    await appendEvents(log, calls(16, 8));
    await project(missing);
    await expectLikeReference(stores(), 24, missing);
  }, 180_000);
});

/** The partitions of the events topic whose stored position is behind the log's end. */
async function partitionsBehind(db: ConnectionPool, log: EventLog): Promise<Map<number, bigint>> {
  const stored = (await db.query(sql`select partition, next_offset::text as next from projector_positions where topic = ${TOPICS.events}`)) as {
    partition: number;
    next: string;
  }[];
  const ends = await log.ends(TOPICS.events);
  return new Map(
    ends
      .filter((end) => BigInt(end.end) > BigInt(stored.find((row) => row.partition === end.partition)?.next ?? '0'))
      .map((end) => [end.partition, BigInt(end.end)]),
  );
}

describe('a projector database restored while the projector runs', () => {
  const stores = withStores('projector_restore_running');

  it('finds its position behind its next batch and has the log read the partition again from it', async () => {
    const { restored, log } = stores();
    const outcomes: BatchOutcome[] = [];
    // The periodic comparison of positions is put off: this case is the batch finding it out.
    const projector = await startProjector({ db: restored, log, onBatch: (outcome) => void outcomes.push(outcome), positionCheckMs: 3_600_000 });
    let callCount = 16;
    try {
      await appendEvents(log, calls(0, 8));
      await waitUntilCaughtUp(restored, log);
      await backUp(restored);
      await appendEvents(log, calls(8, 8));
      await waitUntilCaughtUp(restored, log);
      await restore(restored);

      // A running projector learns that a partition's position went back from that partition's next batch: a call
      // more until each partition the restore set back has one.
      const lost = await partitionsBehind(restored, log);
      expect(lost.size).toBeGreaterThan(0);
      outcomes.splice(0);
      for (;;) {
        const ends = await log.ends(TOPICS.events);
        if ([...lost].every(([partition, end]) => BigInt(ends.find((e) => e.partition === partition)?.end ?? '0') > end)) break;
        await appendEvents(log, calls(callCount++, 1));
      }
      await waitUntilCaughtUp(restored, log);
    } finally {
      await projector.stop();
    }
    expect(outcomes.some((outcome) => outcome.readFrom !== undefined)).toBe(true);
    await expectLikeReference(
      stores(),
      callCount,
      outcomes.map((outcome) => outcome.missing),
    );
  }, 180_000);
});

describe('a projector database restored while the projector runs, with no new records after', () => {
  const stores = withStores('projector_restore_idle');

  it('finds its stored positions behind what it committed and rejoins the group to read them again', async () => {
    const { restored, log } = stores();
    const missing: number[] = [];
    const behind: string[][] = [];
    const projector = await startProjector({
      db: restored,
      log,
      onBatch: (outcome) => void missing.push(outcome.missing),
      positionCheckMs: 200,
      onBehind: (partitions) => void behind.push([...partitions]),
    });
    try {
      await appendEvents(log, calls(0, 8));
      await waitUntilCaughtUp(restored, log);
      await backUp(restored);
      await appendEvents(log, calls(8, 16));
      await waitUntilCaughtUp(restored, log);
      await restore(restored);
      expect((await partitionsBehind(restored, log)).size).toBeGreaterThan(0);
      // Bounded here, so a projector that never finds out fails on this line rather than on the test's timeout.
      const bound = new AbortController();
      await Promise.race([
        waitUntilCaughtUp(restored, log).finally(() => bound.abort()),
        sleep(60_000, undefined, { signal: bound.signal }).then(() => Promise.reject(new Error('the restored positions were not read again within 60 s'))),
      ]);
    } finally {
      await projector.stop();
    }
    expect(behind.length).toBeGreaterThan(0);
    await expectLikeReference(stores(), 24, missing);
  }, 180_000);
});
