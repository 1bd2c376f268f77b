import { randomBytes } from 'node:crypto';
import { openDatabase } from '@earshot/db';
import { createKafkaLog, type LogRecord } from '@earshot/log';
import { createBatchApplier, dataKeyOptions } from '@earshot/projector';
import { createTestDatabase, ingestedRecords } from '@earshot/testing';
import { wholeNumber } from './args';
import { chunks, take, trafficOptions, trafficTenants } from './call-traffic';
import { cpuMsPerRequest, cpuSeconds, databaseBackends, microseconds } from './process-cpu';
import { statementTimes } from './statement-times';
import type { Bench } from './run';

/** The timed batches go in this many rounds, and the figures are the best round's. */
const ROUNDS = 4;

/**
 * `npm run bench -- apply`: the projector's batch applier alone (decode, open,
 * fold, write), from records held in memory into the real Postgres, one batch
 * after another: `bench projector`'s events and its keys, without the broker
 * and the consumers, so that alternating runs of two versions compare the
 * applier's own cost. The first tenth of the events is applied before timing,
 * so the figures are of compiled code; the rest go in four rounds, and the
 * figures are those of the round that cost this process least (as `bench
 * codec`'s: on a shared machine a round only ever runs slower than the code
 * does), its CPU an event and Postgres's, beside events/s over them all,
 * and the time of Postgres's costliest statements over them all.
 * Options: --events N (default 100000), --batch N (default 2500, about what a
 * projector's consumer takes at a time catching up), --tenants N (default 8),
 * --concurrent-calls N (default 1), --in-the-clear.
 */
const bench: Bench = async ({ kafkaBrokers, databaseUrl, args, progress, report }) => {
  const traffic = trafficOptions(args, 100_000);
  const batch = wholeNumber(args, 'batch', 2_500);
  const database = await createTestDatabase('bench_apply', databaseUrl);
  const db = openDatabase({ url: database.url, poolSize: 4, applicationName: 'bench-apply' });
  // The applier appends only dead letters, which these events never are; it is given the real log all the same.
  const log = await createKafkaLog({ brokers: kafkaBrokers, clientId: 'bench-apply', namespace: `bench-apply-${randomBytes(4).toString('hex')}.` });
  try {
    const { tenants, dataKeys, sealing } = await trafficTenants(db, traffic.tenants, traffic.sealed);

    const records: LogRecord[] = [];
    for (const chunk of chunks(take(tenants, traffic.events, 'apply', traffic.concurrentCalls), 2_000)) {
      for (const record of await ingestedRecords(chunk, sealing)) {
        records.push({ ...record, headers: record.headers ?? {}, partition: 0, offset: String(records.length), timestamp: Date.now() });
      }
      progress(`made ${records.length.toLocaleString('en-US')} / ${traffic.events.toLocaleString('en-US')} records`);
    }
    const apply = createBatchApplier({ db, log, ...dataKeyOptions(dataKeys) });
    const batches = [...chunks(records, batch)];
    const warmup = Math.ceil(batches.length / 10);
    for (const [i, records] of batches.slice(0, warmup).entries()) {
      await apply(records);
      progress(`warming up: batch ${i + 1} / ${warmup}`);
    }

    // The pool's connections were all open by the end of the warm-up: the same backends throughout, from where they were.
    const postgres = await databaseBackends(db);
    const counting = await (await statementTimes(db, database.name)).count();
    const timedBatches = batches.slice(warmup);
    const perRound = Math.ceil(timedBatches.length / ROUNDS);
    const rounds: { events: number; seconds: number; cpuUs: number; postgresMs: number | 'n/a' }[] = [];
    for (const round of chunks(timedBatches, perRound)) {
      const postgresBefore = cpuSeconds(postgres);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      let events = 0;
      for (const records of round) {
        const outcome = await apply(records);
        if (outcome.applied !== records.length)
          throw new Error(`applied ${outcome.applied} of a batch of ${records.length}: this bench makes no duplicates, dead letters or erasures`);
        events += records.length;
        progress(`round ${rounds.length + 1} of ${ROUNDS}: ${events.toLocaleString('en-US')} events`);
      }
      const cpu = process.cpuUsage(cpuBefore);
      rounds.push({
        events,
        seconds: (performance.now() - started) / 1_000,
        cpuUs: (cpu.user + cpu.system) / events,
        postgresMs: cpuMsPerRequest(cpuSeconds(postgres), postgresBefore, events),
      });
    }
    const best = rounds.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
    const timed = rounds.reduce((sum, r) => sum + r.events, 0);
    const statements = await counting(timed);
    const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
    report(
      `applied ${timed.toLocaleString('en-US')} events (${traffic.sealed ? 'sealed' : 'in the clear'}, ${traffic.tenants} tenants) in batches of ${batch}, after ${warmup} batches to warm up: ` +
        `${Math.round(timed / seconds).toLocaleString('en-US')} events/s; CPU per event in each round: this process ${rounds.map((r) => r.cpuUs.toFixed(1)).join(', ')} µs, ` +
        `Postgres ${rounds.map((r) => microseconds(r.postgresMs)).join(', ')} µs`,
    );
    report(`over every round: ${statements.line}`);
    return {
      events: timed,
      batch,
      tenants: traffic.tenants,
      concurrent_calls: traffic.concurrentCalls,
      sealed: traffic.sealed,
      apply_events_per_s: Math.round(timed / seconds),
      apply_cpu_us_per_event: Number(best.cpuUs.toFixed(1)),
      postgres_cpu_us_per_event: microseconds(best.postgresMs),
      ...statements.figures,
    };
  } finally {
    await log.close();
    await db.dispose();
    await database.drop();
  }
};

export default bench;
