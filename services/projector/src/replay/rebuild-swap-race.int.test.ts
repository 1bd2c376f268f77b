import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, inTenant, migrate, sql, type ConnectionPool } from '@earshot/db';
import type { EventLog } from '@earshot/log';
import { appendEvents, callScript, kafkaLog, openTestDatabase, waitUntilCaughtUp } from '@earshot/testing';
import { startProjector } from '../projector';
import { PROJECTOR_MIGRATIONS } from '../store/migration-sets';
import { rebuildReadModels } from './rebuild';

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    await sleep(20);
  }
}

/**
 * The swap moves every table in one transaction, in name order; a writer
 * that holds one table and then wants another the swap already moved (an
 * erasure deleting a call's rows table by table) deadlocks with it. Postgres
 * ends the swap's transaction, which rolls back whole: the rebuild swaps
 * again rather than throwing away the copy it spent the replay on.
 */
describe('a rebuild whose swap deadlocks with a writer', () => {
  let db: ConnectionPool;
  let log: EventLog;
  let close: () => Promise<void>;
  const tenant = randomUUID();

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('rebuild_swap_race'));
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('rebuild-swap-race');
  });
  afterAll(async () => {
    await log.close();
    await close();
  });

  it('swaps again once the deadlock has rolled its first swap back', async () => {
    await appendEvents(
      log,
      [1, 2, 3].flatMap((n) => callScript({ tenant, providerCallId: `call-${n}`, turns: 2, ending: 'completed' })),
    );
    const projector = await startProjector({ db, log });
    await waitUntilCaughtUp(db, log);

    const rebuilding = rebuildReadModels({ db, log, from: 'earliest' });
    const tables = await until(async () => {
      const rows = (await db.query(
        sql`select tablename from pg_tables where schemaname like 'earshot\_rebuild\_%' and schemaname not like '%\_retired' order by tablename`,
      )) as { tablename: string }[];
      return rows.length > 0 ? rows.map((row) => row.tablename) : undefined;
    });
    const [first, last] = [tables[0] as string, tables.at(-1) as string];
    let deadlocked = false;
    await db.tx(async (tx) => {
      // The swap, not this transaction, must be the one undone. Should a loaded machine close the cycle only after
      // the swap's one deadlock check, the swap's lock_timeout undoes it instead, which it takes as the same lost race.
      await tx.query(sql`set local deadlock_timeout = '30s'`);
      await tx.query(sql`lock table public.${sql.ident(last)} in access share mode`);
      await until(async () => {
        const waiting = await db.query(sql`
          select 1 from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query like ${`alter table public."${last}" set schema%`}`);
        return waiting.length > 0 ? true : undefined;
      });
      // The swap has moved `first` and waits for `last`: reading `first` now closes the cycle, and the swap, waiting longer, is ended.
      await tx.query(sql`select count(*) from public.${sql.ident(first)}`);
      deadlocked = true;
    });
    await rebuilding;
    await projector.stop();

    const calls = (await inTenant(db, tenant, (tx) => tx.query(sql`select provider_call_id from calls order by provider_call_id`))) as {
      provider_call_id: string;
    }[];
    const copies = await db.query(sql`select nspname from pg_namespace where nspname like 'earshot\_rebuild\_%'`);
    expect({ deadlocked, calls: calls.map((c) => c.provider_call_id), copiesLeft: copies.length }).toEqual({
      deadlocked: true,
      calls: ['call-1', 'call-2', 'call-3'],
      copiesLeft: 0,
    });
  });
});
