import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
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
  PROJECTOR_PROCESS,
} from '@earshot/testing';
import { startProjector } from './projector';
import { PROJECTOR_MIGRATIONS } from './store/migration-sets';

const child = PROJECTOR_PROCESS;
const tenants = [randomUUID(), randomUUID()];
const randomDelay = (maxMs: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * maxMs)));

/**
 * Starts a projector process and SIGKILLs it at a random moment after it
 * begins consuming. Each run joins a consumer group of its own: a group whose
 * member was killed waits out the member's session (30 s) before anyone else
 * gets its partitions, and a fresh group starts from the beginning of the
 * log, so only the positions stored in Postgres keep the effects once.
 */
async function runAndKill(url: string, namespace: string, group: string, killWithinMs: number): Promise<void> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, DATABASE_URL: url, KAFKA_BROKERS: kafkaBrokers().join(','), EARSHOT_LOG_NAMESPACE: namespace, PROJECTOR_GROUP: group },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  while (!output.includes('started') && proc.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
  await randomDelay(killWithinMs);
  proc.kill('SIGKILL');
  if (proc.exitCode === null && proc.signalCode === null) await once(proc, 'exit');
}

describe('a projector killed at random points', () => {
  let killed: { db: ConnectionPool; url: string; close: () => Promise<void> };
  let reference: { db: ConnectionPool; url: string; close: () => Promise<void> };
  let log: EventLog;
  const namespace = uniqueNamespace('projector-kill');

  beforeAll(async () => {
    killed = await openTestDatabase('projector_killed');
    reference = await openTestDatabase('projector_reference');
    for (const { db } of [killed, reference]) await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await createKafkaLog({ brokers: kafkaBrokers(), clientId: 'projector-kill', namespace });
  });
  afterAll(async () => {
    await log.close();
    await killed.close();
    await reference.close();
  });

  it('ends, after restarts, with exactly the rows of a run without kills', async () => {
    const calls = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => from + i).flatMap((n) =>
        callScript({
          tenant: tenants[n % 2] ?? '',
          providerCallId: `call-${n}`,
          turns: 12,
          ending: n % 3 === 0 ? 'transferred' : 'completed',
          outcome: true,
          startMs: Date.parse('2026-01-08T09:30:00Z') + n * 7_000,
        }),
      );
    const unfinished: boolean[] = [];
    await appendEvents(log, calls(0, 40));
    // The first run after new events dies within 100 ms of consuming, while work is left (kills up to 700 ms in once all found it done); later runs die at any point.
    const killWithinMs = (run: number) => (run % 3 === 0 ? 100 : 700);
    for (let run = 0; run < 3; run++) {
      await runAndKill(killed.url, namespace, `killed-${run}`, killWithinMs(run));
      unfinished.push(!(await isCaughtUp(killed.db, log)));
    }
    await appendEvents(log, calls(40, 80));
    for (let run = 3; run < 6; run++) {
      await runAndKill(killed.url, namespace, `killed-${run}`, killWithinMs(run));
      unfinished.push(!(await isCaughtUp(killed.db, log)));
    }
    // The kills must land while work was left, or the test proves nothing.
    expect(unfinished.filter(Boolean).length).toBeGreaterThan(0);

    const finish = await startProjector({ db: killed.db, log });
    await waitUntilCaughtUp(killed.db, log);
    await finish.stop();
    const untouched = await startProjector({ db: reference.db, log, group: 'projector-reference' });
    await waitUntilCaughtUp(reference.db, log);
    await untouched.stop();

    for (const tenant of tenants) {
      const rows = await readModelSnapshot(killed.db, tenant);
      expect(rows.calls).toHaveLength(40);
      expect(rows).toEqual(await readModelSnapshot(reference.db, tenant));
    }
  }, 240_000);
});
