import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, sql, type ConnectionPool } from '@earshot/db';
import type { EventLog } from '@earshot/log';
import { openTestDatabase, kafkaLog, appendEvents, callScript, waitUntilCaughtUp, readModelSnapshot } from '@earshot/testing';
import { startProjector } from './projector';
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

describe('a projector database restored to an older position than the consumer group', () => {
  let restored: { db: ConnectionPool; close: () => Promise<void> };
  let reference: { db: ConnectionPool; close: () => Promise<void> };
  let log: EventLog;

  beforeAll(async () => {
    restored = await openTestDatabase('projector_restored');
    reference = await openTestDatabase('projector_restore_reference');
    for (const { db } of [restored, reference]) await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('projector-restore');
  });
  afterAll(async () => {
    await log.close();
    await restored.close();
    await reference.close();
  });

  it('reads again from its own positions what the restore lost, missing nothing', async () => {
    const project = async (db: ConnectionPool, group: string, missing: number[]) => {
      const projector = await startProjector({ db, log, group, onBatch: (outcome) => void missing.push(outcome.missing) });
      await waitUntilCaughtUp(db, log);
      await projector.stop();
    };
    const missing: number[] = [];
    await appendEvents(log, calls(0, 8));
    await project(restored.db, 'projector', missing);
    await backUp(restored.db);
    // Applied, and committed to the group, after the backup: lost by the restore.
    await appendEvents(log, calls(8, 8));
    await project(restored.db, 'projector', missing);
    await restore(restored.db);

    missing.splice(0);
    await appendEvents(log, calls(16, 8));
    await project(restored.db, 'projector', missing);
    await project(reference.db, 'projector-reference', []);

    const rows = await readModelSnapshot(restored.db, tenant);
    expect(rows.calls).toHaveLength(24);
    expect(rows).toEqual(await readModelSnapshot(reference.db, tenant));
    expect(missing.reduce((sum, n) => sum + n, 0)).toBe(0);
  }, 180_000);
});
