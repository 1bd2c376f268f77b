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
  isCaughtUp,
  waitUntilCaughtUp,
  readModelSnapshot,
  recordFigure,
  seededRandom,
  spawnProjector,
  testSeed,
  type ProjectorChild,
} from '@earshot/testing';
import { startProjector } from './projector';
import { PROJECTOR_MIGRATIONS } from './store/migration-sets';

const tenants = [randomUUID(), randomUUID()];
/**
 * A run costs about 2 s of CPU (most of it a process loading and joining
 * Kafka): 50 take two minutes on two cores, and a quarter of an hour on the
 * shared machine at a load of 40, hence the timeout. The kill points are
 * seeded afresh each run, so the runs of the suite cover more of them.
 */
const KILLS = 50;
/**
 * Where a kill lands: a quarter at a random moment up to this long after the
 * process starts consuming (joining the group, fetching), the rest as long
 * after a call is appended behind its first batch (fetching and applying it).
 */
const KILL_WITHIN_MS = 400;
/** Processes loaded and connected ahead, so a run waits for Node and Kafka's start-up less often. */
const WARM = 2;

const call = (n: number) =>
  callScript({
    tenant: tenants[n % 2] ?? '',
    providerCallId: `call-${n}`,
    turns: 12,
    ending: n % 3 === 0 ? 'transferred' : 'completed',
    outcome: true,
    startMs: Date.parse('2026-01-08T09:30:00Z') + n * 7_000,
  });

/**
 * Every run is a projector process SIGKILLed at a random moment after it
 * begins consuming. Each joins a consumer group of its own: a group whose
 * member was killed waits out the member's session (10 s) before anyone
 * else gets its partitions, and a fresh group starts from the beginning of
 * the log, so only the positions stored in Postgres keep the effects once.
 */
describe('a projector killed at random points', () => {
  let killed: { db: ConnectionPool; url: string; close: () => Promise<void> };
  let reference: { db: ConnectionPool; url: string; close: () => Promise<void> };
  let log: EventLog;
  const namespace = uniqueNamespace('projector-kill');
  const warm: Promise<ProjectorChild>[] = [];

  beforeAll(async () => {
    killed = await openTestDatabase('projector_killed');
    reference = await openTestDatabase('projector_reference');
    for (const { db } of [killed, reference]) await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await createKafkaLog({ brokers: kafkaBrokers(), clientId: 'projector-kill', namespace });
  });
  afterAll(async () => {
    await Promise.all(warm.map(async (child) => (await child).stop('SIGKILL')));
    await log.close();
    await killed.close();
    await reference.close();
  });

  it('ends, after restarts, with exactly the rows of a run without kills', async ({ task }) => {
    const seed = testSeed();
    const random = seededRandom(seed);
    console.log(`projector kill test: ${KILLS} SIGKILLs, seed ${seed} (RELIABILITY_SEED=${seed} replays the kill points)`);
    const began = performance.now();
    const next = (run: number) => spawnProjector({ databaseUrl: killed.url, namespace, group: `killed-${run}`, startOnInput: true });
    for (let run = 0; run < Math.min(WARM, KILLS); run++) warm.push(next(run));

    // One stream of events: each run adds two calls (about 130 events) to what the last one left. A run killed after
    // its first batch is handed the second call only then, since that batch mostly took both: in a loaded suite run
    // 3 kills of 50 left work (9 to 13 in quiet runs; 17 to 19 now).
    let unfinished = 0;
    let applying = 0;
    for (let run = 0; run < KILLS; run++) {
      const afterFirstBatch = random() >= 0.25;
      await appendEvents(log, afterFirstBatch ? call(2 * run) : [...call(2 * run), ...call(2 * run + 1)]);
      const child = await (warm.shift() as Promise<ProjectorChild>);
      if (run + WARM < KILLS) warm.push(next(run + WARM));
      await child.printed('ready');
      child.go();
      await child.printed('started');
      if (afterFirstBatch) {
        await child.appliedOnce();
        await appendEvents(log, call(2 * run + 1));
      }
      // Squared, so most kills land early, while the work handed to it is being fetched and applied.
      await sleep(Math.floor(random() ** 2 * KILL_WITHIN_MS));
      await child.stop('SIGKILL');
      if (child.batches() > 0) applying++;
      if (!(await isCaughtUp(killed.db, log))) unfinished++;
    }
    // The kills must land while work was left, or the test proves nothing.
    expect(unfinished).toBeGreaterThan(KILLS / 10);
    expect(applying).toBeGreaterThan(KILLS / 2);

    const finish = await startProjector({ db: killed.db, log });
    await waitUntilCaughtUp(killed.db, log);
    await finish.stop();
    const untouched = await startProjector({ db: reference.db, log, group: 'projector-reference' });
    await waitUntilCaughtUp(reference.db, log);
    await untouched.stop();

    for (const tenant of tenants) {
      const rows = await readModelSnapshot(killed.db, tenant);
      expect(rows.calls).toHaveLength(KILLS);
      expect(rows).toEqual(await readModelSnapshot(reference.db, tenant));
    }
    const seconds = Math.round((performance.now() - began) / 1000);
    recordFigure(
      task,
      `${KILLS} SIGKILLs at random points (seed ${seed}): ${applying} after applying batches, ${unfinished} with work left; read models equal a clean replay of ${2 * KILLS} calls; ${seconds} s`,
    );
  }, 1_800_000);
});
