import { randomBytes } from 'node:crypto';
import { openDatabase } from '@earshot/db';
import { createKafkaLog } from '@earshot/log';
import { createTestDatabase } from '@earshot/testing';
import { appendTraffic, trafficOptions, trafficTenants } from './call-traffic';
import { cpuMsPerRequest, cpuSeconds, microseconds } from './process-cpu';
import { readThrough } from './read-through';
import type { Bench } from './run';

/** The topic is read whole this many times, each by a group of its own, and the figures are the cheapest reading's. */
const ROUNDS = 3;

/**
 * `npm run bench -- consume`: the EventLog port's consumer alone, reading
 * `bench projector`'s records (sealed, 8 tenants) from the real broker and
 * handing each batch to a handler that does nothing with it. It is the part
 * of the projector's cost that `bench apply` leaves out: the Kafka client's
 * fetching and reading of records, and the port's making of LogRecords.
 * The topic is read three times, by a new consumer group each time; the
 * figures are those of the reading that cost this process least (the first
 * also compiles the client's code), its CPU an event and the broker's,
 * timed from the first batch, as `bench projector` times its projector.
 * Options: --events N (default 200000), --tenants N (default 8),
 * --concurrent-calls N (default 1), --in-the-clear.
 */
const bench: Bench = async ({ kafkaBrokers, brokerPid, databaseUrl, args, progress, report }) => {
  const traffic = trafficOptions(args, 200_000);
  const database = await createTestDatabase('bench_consume', databaseUrl);
  const db = openDatabase({ url: database.url, poolSize: 2, applicationName: 'bench-consume' });
  const log = await createKafkaLog({ brokers: kafkaBrokers, clientId: 'bench-consume', namespace: `bench-consume-${randomBytes(4).toString('hex')}.` });
  try {
    const appended = await appendTraffic(log, await trafficTenants(db, traffic.tenants, traffic.sealed), traffic, 'consume', progress);

    const brokerPids = brokerPid === undefined ? [] : [brokerPid];
    const readings: { seconds: number; cpuUs: number; brokerMs: number | 'n/a' }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      let started = 0;
      let cpuBefore: NodeJS.CpuUsage | undefined;
      let brokerBefore: number | undefined;
      const reader = await readThrough(log, `reader-${round}`, appended, (read) => {
        if (cpuBefore === undefined) {
          cpuBefore = process.cpuUsage();
          brokerBefore = brokerPids.length > 0 ? cpuSeconds(brokerPids) : undefined;
          started = performance.now();
        }
        progress(`reading ${round} of ${ROUNDS}: ${read.toLocaleString('en-US')} events`);
      });
      const seconds = (performance.now() - started) / 1_000;
      const cpu = process.cpuUsage(cpuBefore);
      const brokerMs = cpuMsPerRequest(brokerPids.length > 0 ? cpuSeconds(brokerPids) : undefined, brokerBefore, appended);
      await reader.stop();
      readings.push({ seconds, cpuUs: (cpu.user + cpu.system) / appended, brokerMs });
    }
    const best = readings.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
    report(
      `read ${appended.toLocaleString('en-US')} events (${traffic.sealed ? 'sealed' : 'in the clear'}, ${traffic.tenants} tenants) ${ROUNDS} times through the ${process.env.EARSHOT_KAFKA_CLIENT || 'default'} adapter: ` +
        `CPU per event in each reading: this process ${readings.map((r) => r.cpuUs.toFixed(2)).join(', ')} µs, broker ${readings.map((r) => microseconds(r.brokerMs)).join(', ')} µs`,
    );
    return {
      events: appended,
      tenants: traffic.tenants,
      concurrent_calls: traffic.concurrentCalls,
      sealed: traffic.sealed,
      kafka_client: process.env.EARSHOT_KAFKA_CLIENT || 'default',
      consume_events_per_s: Math.round(appended / best.seconds),
      consume_cpu_us_per_event: Number(best.cpuUs.toFixed(2)),
      broker_cpu_us_per_event: microseconds(best.brokerMs),
    };
  } finally {
    await log.close();
    await db.dispose();
    await database.drop();
  }
};

export default bench;
