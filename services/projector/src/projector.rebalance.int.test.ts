import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, type ConnectionPool } from '@earshot/db';
import { createKafkaLog, type EventLog } from '@earshot/log';
import {
  openTestDatabase,
  kafkaBrokers,
  uniqueNamespace,
  appendEvents,
  callScript,
  waitUntilCaughtUp,
  readModelSnapshot,
  recordFigure,
  spawnProjector,
  type ProjectorChild,
} from '@earshot/testing';
import { startProjector } from './projector';
import { PROJECTOR_MIGRATIONS } from './store/migration-sets';

const tenants = [randomUUID(), randomUUID()];

const call = (n: number) =>
  callScript({
    tenant: tenants[n % 2] ?? '',
    providerCallId: `call-${n}`,
    turns: 6,
    ending: n % 4 === 0 ? 'failed' : 'completed',
    outcome: n % 2 === 0,
    startMs: Date.parse('2026-01-08T09:30:00Z') + n * 5_000,
  });

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(20);
}

/** Two projector processes in one consumer group, the second joining and leaving while events flow. */
describe('a consumer-group rebalance of the projector', () => {
  let shared: { db: ConnectionPool; url: string; close: () => Promise<void> };
  let reference: { db: ConnectionPool; url: string; close: () => Promise<void> };
  let log: EventLog;
  const namespace = uniqueNamespace('projector-rebalance');
  const children: ProjectorChild[] = [];

  beforeAll(async () => {
    shared = await openTestDatabase('projector_rebalanced');
    reference = await openTestDatabase('projector_rebalance_reference');
    for (const { db } of [shared, reference]) await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await createKafkaLog({ brokers: kafkaBrokers(), clientId: 'projector-rebalance', namespace });
  });
  afterAll(async () => {
    await Promise.all(children.map((child) => child.stop('SIGKILL')));
    await log.close();
    await shared.close();
    await reference.close();
  });

  it('loses and doubles nothing while a second projector joins and leaves', async ({ task }) => {
    const first = await spawnProjector({ databaseUrl: shared.url, namespace, group: 'projector' });
    children.push(first);
    await first.printed('started');

    // Events flow the whole time: two calls every 100 ms.
    let calls = 0;
    let flowing = true;
    const appending = (async () => {
      while (flowing) {
        await appendEvents(log, [...call(calls), ...call(calls + 1)]);
        calls += 2;
        await sleep(100);
      }
    })();
    await until(() => first.batches() > 0);

    const second = await spawnProjector({ databaseUrl: shared.url, namespace, group: 'projector' });
    children.push(second);
    await second.printed('started');
    // Joined: the group gave it partitions, and it applied from them.
    await until(() => second.batches() > 0);
    const joinedAt = calls;
    await until(() => calls >= joinedAt + 20);
    // Leaves as a service stops (SIGTERM): the batch in hand commits, the group hands its partitions back.
    await second.stop('SIGTERM');
    const firstBeforeLeave = first.batches();
    const leftAt = calls;
    await until(() => calls >= leftAt + 20 && first.batches() > firstBeforeLeave);
    flowing = false;
    await appending;

    await waitUntilCaughtUp(shared.db, log);
    await first.stop('SIGTERM');
    const clean = await startProjector({ db: reference.db, log, group: 'projector-reference' });
    await waitUntilCaughtUp(reference.db, log);
    await clean.stop();

    for (const tenant of tenants) {
      const rows = await readModelSnapshot(shared.db, tenant);
      // No loss: every call is there; no double count: every row, usage meters included, equals a clean replay's.
      expect(rows.calls).toHaveLength(calls / 2);
      expect(rows).toEqual(await readModelSnapshot(reference.db, tenant));
    }
    recordFigure(
      task,
      `${calls} calls flowing; the second projector joined at call ${joinedAt} (${second.batches()} batches) and left at call ${leftAt}; read models equal a clean replay`,
    );
  }, 300_000);
});
