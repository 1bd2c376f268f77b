import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, inTenant, migrate, sql, type ConnectionPool } from '@earshot/db';
import type { EventLog } from '@earshot/log';
import { openTestDatabase, kafkaLog, appendEvents, callScript, waitUntilCaughtUp, readModelSnapshot } from '@earshot/testing';
import { startProjector } from '../projector';
import { PROJECTOR_MIGRATIONS } from '../store/migration-sets';
import { rebuildReadModels, type RebuildProgress } from './rebuild';

const tenant = randomUUID();
const calls = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => from + i).flatMap((n) =>
    callScript({ tenant, providerCallId: `call-${n}`, turns: 8, outcome: true, ending: n % 4 === 0 ? 'failed' : 'completed' }),
  );

describe('replay into fresh tables', () => {
  let live: { db: ConnectionPool; close: () => Promise<void> };
  let reference: { db: ConnectionPool; close: () => Promise<void> };
  let log: EventLog;

  beforeAll(async () => {
    live = await openTestDatabase('replay_live');
    reference = await openTestDatabase('replay_reference');
    for (const { db } of [live, reference]) await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('replay');
  });
  afterAll(async () => {
    await log.close();
    await live.close();
    await reference.close();
  });

  it('rebuilds identical read models and swaps them in while reads keep answering and the live projector keeps writing', async () => {
    await appendEvents(log, calls(0, 30));
    const projector = await startProjector({ db: live.db, log });
    await waitUntilCaughtUp(live.db, log);
    // Damage the live read model, as a projection bug would: the rebuild must bring back the truth.
    await live.db.query(sql`update calls set status = 'abandoned' where tenant_id = ${tenant}`);

    let reading = true;
    const answers: number[] = [];
    const reader = (async () => {
      while (reading) {
        const [row] = await inTenant(live.db, tenant, (tx) => tx.query(sql`select count(*)::int as n from calls`));
        answers.push(row?.n ?? -1);
      }
    })();
    const progress: RebuildProgress[] = [];
    const rebuilding = rebuildReadModels({ db: live.db, log, from: 'earliest', onProgress: (p) => progress.push(p) });
    await appendEvents(log, calls(30, 45));
    const summary = await rebuilding;
    await waitUntilCaughtUp(live.db, log);
    reading = false;
    await reader;
    await projector.stop();

    const untouched = await startProjector({ db: reference.db, log, group: 'replay-reference' });
    await waitUntilCaughtUp(reference.db, log);
    await untouched.stop();

    expect(await readModelSnapshot(live.db, tenant)).toEqual(await readModelSnapshot(reference.db, tenant));
    expect(summary.events).toBeGreaterThanOrEqual(calls(0, 30).length);
    expect(summary.tables).toEqual(expect.arrayContaining(['calls', 'projector_positions', 'usage_meters']));
    expect(progress.at(-1)).toMatchObject({ phase: 'swapped', lag: expect.any(Number) });
    // Every read answered, and always with whole tables: the old ones or the new ones.
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((n) => n >= 30 && n <= 45)).toBe(true);
    const leftovers: unknown[] = await live.db.query(sql`select nspname from pg_namespace where nspname like 'earshot_rebuild%'`);
    expect(leftovers).toEqual([]);
  }, 120_000);
});
