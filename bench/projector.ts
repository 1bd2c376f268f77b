import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DataKeys } from '@earshot/auth';
import { openDatabase, sql, type ConnectionPool } from '@earshot/db';
import { createKafkaLog, TOPICS, type EventLog, type LogPosition } from '@earshot/log';
import { dataKeyOptions, startProjector } from '@earshot/projector';
import { createTestDatabase, ingestedRecords, isCaughtUp, waitUntilCaughtUp } from '@earshot/testing';
import { busyShare, cpuMsPerRequest, cpuSeconds, databaseBackends, machineBound, machineTicks, microseconds } from './process-cpu';
import { deployedHeapFlags } from './deployed-flags';
import { option, wholeNumber } from './args';
import { appendTraffic, take, trafficOptions, trafficTenants } from './call-traffic';
import { collectorPauses } from './collector-pauses';
import { onGroupSettled } from './group-settled';
import type { ProjectorMessage } from './projector-process';
import { readThrough } from './read-through';
import { BatchRetries } from './batch-retries';
import { sampleLockWaits } from './lock-waits';
import { statementTimes } from './statement-times';
import type { Bench } from './run';

/**
 * The projector from the real broker into the real Postgres: N pre-appended
 * events of 30-turn calls (transcripts, tool calls, outcomes) across tenants,
 * then a plain COPY of as many rows into an unindexed table (the floor of what
 * this Postgres takes), then freshness at a steady 1,000 events/s.
 * The events are sealed with per-call data keys, as ingest seals them by
 * default, and the projector opens them with the keys it looks up and holds,
 * as its service module does. It prints the CPU an event cost the projector,
 * Postgres and the broker, how busy the machine was, and the rate at which
 * that cost fills every core here: the bound no number of projectors passes.
 * It also prints how busy each projector's event loop was, and the rate its
 * one thread would reach if it never waited: the bound of that many projectors;
 * how long its garbage collector paused it an event; and how many batches
 * failed an attempt and were tried again (a deadlock, a conflict with another
 * batch), each of which costs the run its wait; Postgres's costliest
 * statements, each with its share of their time; and how long Postgres
 * connections waited on locks other batches held (sampled every 20 ms).
 * Options: --events N (default 200000), --freshness-seconds S (default 15),
 * --processes N (default 1: the projector runs in the bench's own process;
 * more start N projector processes in one consumer group, each with the heap
 * flags of its deployment, timed from when each holds partitions, and
 * print events/s per process and their peak resident memory), --in-the-clear
 * (events appended unsealed, as with EARSHOT_SEAL_EVENTS=false), --concurrent-calls N (default 1: each call's
 * events in one run; N interleaves N calls in progress, as a provider's live traffic does, so a batch touches many
 * calls a few events each), --tenants N (default 8: the calls go to N tenants in turn; a batch's statements are
 * per tenant, as row-level security checks each tenant's rows, so more tenants in a batch mean more, smaller statements),
 * --cold-broker (the broker as it starts: by default the events are read once by another consumer group before the
 * projector starts, so that the broker has compiled its fetch path, as a deployed one has).
 */

/** What a projector process answers "report" with. */
type ProcessReport = Exclude<ProjectorMessage, { settled: true }>;

const percentile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A projecting phase: the events it timed, over how long, the projectors' CPU per event applied, and how busy their event loops were. */
interface Projecting {
  events: number;
  seconds: number;
  cpuUsPerEvent: number;
  /** The share of the time each projector's event loop was busy (their mean): it applies events on that one thread. */
  loopBusy: number;
  /** The projectors' garbage collector's pauses per event applied (wall time; see collectorPauses). */
  gcUsPerEvent: number;
  /** The projector processes' largest peak resident memory; none in the bench's own process, which also appends. */
  peakRssMb?: number;
  /** Batch attempts that failed and were tried again (a deadlock, a conflict with another batch), and the first one's error. */
  retries: { count: number; first?: string };
  /** The rest of the report's line, given the rate. */
  detail(rate: number): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The projector in this process, timed from the moment its consumer group settled: joining it is a one-off, reported
 * apart, and so are the batches that arrived before.
 */
async function projectHere(db: ConnectionPool, log: EventLog, dataKeys: DataKeys, total: number, progress: (line: string) => void): Promise<Projecting> {
  let applied = 0;
  let untimed = 0;
  let batches = 0;
  let started: number | undefined;
  // The projector goes on applying the freshness phase's events, which this phase's progress line must not count.
  let timing = true;
  let cpuAtStart: NodeJS.CpuUsage | undefined;
  let loopAtStart: EventLoopUtilization | undefined;
  const joining = performance.now();
  const pauses = collectorPauses();
  const settled = onGroupSettled(log, () => {
    started = performance.now();
    cpuAtStart = process.cpuUsage();
    loopAtStart = performance.eventLoopUtilization();
    pauses.start();
  });
  const retries = new BatchRetries();
  const projector = await startProjector({
    db,
    log: settled.log,
    ...dataKeyOptions(dataKeys),
    onRetry: (error) => retries.add(error),
    onBatch: (o, records) => {
      if (!timing) return;
      const events = o.applied + o.duplicates + o.deadLettered;
      if (started === undefined || !settled.timed(records)) {
        untimed += events;
        return;
      }
      applied += events;
      batches += 1;
      progress(`projecting ${fmt(applied + untimed)} / ${fmt(total)} events, ${fmt(applied / ((performance.now() - started) / 1_000))} events/s`);
    },
  });
  await waitUntilCaughtUp(db, log);
  timing = false;
  if (started === undefined || applied === 0) {
    await projector.stop();
    throw new Error("the projector's consumers had not all had a batch when the events were all applied: give --events more");
  }
  const seconds = (performance.now() - started) / 1_000;
  const cpu = process.cpuUsage(cpuAtStart);
  const loop = performance.eventLoopUtilization(loopAtStart);
  const gcMs = pauses.ms();
  const joined = started - joining;
  return {
    events: applied,
    seconds,
    cpuUsPerEvent: (cpu.user + cpu.system) / applied,
    loopBusy: loop.utilization,
    gcUsPerEvent: (gcMs * 1_000) / applied,
    retries: retries.figures(),
    detail: () =>
      ` in ${fmt(batches)} batches (its consumer group settled ${(joined / 1_000).toFixed(1)} s after it started; ${fmt(untimed)} events arrived before, not timed)`,
    stop: () => projector.stop(),
  };
}

/**
 * N projector processes in one consumer group (bench/projector-process.ts),
 * timed from the moment every consumer in each has had a batch, so the
 * rebalances of their joining are left out; what they applied before it is
 * subtracted.
 */
async function projectInProcesses(
  count: number,
  where: { databaseUrl: string; kafkaBrokers: readonly string[]; namespace: string; masterKey: Buffer },
  db: ConnectionPool,
  log: EventLog,
  progress: (line: string) => void,
): Promise<Projecting> {
  const script = new URL('./projector-process.ts', import.meta.url).pathname;
  const env = {
    ...process.env,
    BENCH_DATABASE_URL: where.databaseUrl,
    BENCH_KAFKA_BROKERS: where.kafkaBrokers.join(','),
    BENCH_NAMESPACE: where.namespace,
    BENCH_MASTER_KEY: where.masterKey.toString('base64'),
  };
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) if (child.exitCode === null) child.send('stop');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
  };
  const holding = new Set<ChildProcess>();
  const reports = new Map<ChildProcess, (figures: ProcessReport) => void>();
  const heapFlags = deployedHeapFlags('projector');
  for (let i = 0; i < count; i++) {
    // The bench's own Node flags (semi-spaces, tsx) for each projector, and the heap flags it is deployed with.
    const child = spawn(process.execPath, [...process.execArgv, ...heapFlags, script], {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message: ProjectorMessage) => {
      if ('settled' in message) holding.add(child);
      else reports.get(child)?.(message);
    });
    children.push(child);
  }
  const applied = async () => {
    const [row] = (await db.query(sql`select coalesce(sum(next_offset), 0)::text as applied from projector_positions`)) as { applied: string }[];
    return Number(row?.applied ?? 0);
  };
  try {
    while (holding.size < count) {
      if (children.some((child) => child.exitCode !== null)) throw new Error('a projector process exited before the run (its output is above)');
      if (await isCaughtUp(db, log))
        throw new Error(`not every consumer of the ${count} projectors had a batch before the events were all applied: give --events more`);
      progress(`projectors with partitions: ${holding.size} / ${count}, ${fmt(await applied())} events applied`);
      await sleep(20);
    }
    const started = performance.now();
    const before = await applied();
    while (!(await isCaughtUp(db, log))) {
      if (children.some((child) => child.exitCode !== null)) throw new Error('a projector process exited while projecting (its output is above)');
      const done = (await applied()) - before;
      progress(`projecting with ${count} processes: ${fmt(done)} events, ${fmt(done / ((performance.now() - started) / 1_000))} events/s`);
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1_000;
    const figures = await Promise.all(
      children.map(
        (child) =>
          new Promise<ProcessReport>((resolve) => {
            reports.set(child, resolve);
            child.send('report');
          }),
      ),
    );
    const cpuUs = figures.reduce((sum, f) => sum + f.cpuUs, 0);
    const events = figures.reduce((sum, f) => sum + f.applied, 0);
    return {
      events: (await applied()) - before,
      seconds,
      cpuUsPerEvent: cpuUs / events,
      loopBusy: figures.reduce((sum, f) => sum + f.loopBusy, 0) / figures.length,
      gcUsPerEvent: (figures.reduce((sum, f) => sum + f.gcMs, 0) * 1_000) / events,
      peakRssMb: Math.max(...figures.map((f) => f.peakRssMb)),
      retries: { count: figures.reduce((sum, f) => sum + f.retries.count, 0), first: figures.find((f) => f.retries.first)?.retries.first },
      detail: (rate) => ` in ${count} processes, ${fmt(rate / count)} events/s each (${fmt(before)} applied before every process had partitions, not timed)`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const bench: Bench = async ({ kafkaBrokers, brokerPid, databaseUrl, args, progress, report }) => {
  const traffic = trafficOptions(args, 200_000);
  const { sealed, concurrentCalls: concurrent, tenants: tenantCount } = traffic;
  const freshnessSeconds = option(args, 'freshness-seconds', 15);
  const processes = wholeNumber(args, 'processes', 1);
  const warmBroker = !args.includes('--cold-broker');
  const database = await createTestDatabase('bench_projector', databaseUrl);
  const db = openDatabase({ url: database.url, poolSize: 10, applicationName: 'bench-projector' });
  const namespace = `bench-projector-${randomBytes(4).toString('hex')}.`;
  const log = await createKafkaLog({ brokers: kafkaBrokers, clientId: 'bench-projector', namespace });
  let projecting: Projecting | undefined;
  try {
    const keyed = await trafficTenants(db, tenantCount, sealed);
    const { tenants, masterKey, dataKeys, sealing } = keyed;
    const appended = await appendTraffic(log, keyed, traffic, 'bulk', progress);
    report(
      `appended ${fmt(appended)} events (${fmt(appended / 137)} calls of 30 turns, ${fmt(tenantCount)} tenants), ${sealed ? 'sealed with per-call data keys, as ingest seals them by default' : 'in the clear'}`,
    );

    if (warmBroker) {
      // A deployed broker has served these fetches for days; a fresh one compiles its fetch path on the first reads.
      const reader = await readThrough(log, 'warm-up', appended, (read) => progress(`warming the broker: ${fmt(read)} / ${fmt(appended)} events read`));
      await reader.stop();
    }
    const backends = () => databaseBackends(db);
    // Postgres CPU: the connections open before the run from where they were, those opened during it from zero.
    const postgresBefore = await backends();
    const postgresCpuBefore = cpuSeconds(postgresBefore);
    const brokerPids = brokerPid === undefined ? [] : [brokerPid];
    const brokerCpuBefore = brokerPids.length > 0 ? cpuSeconds(brokerPids) : undefined;
    const machineBefore = machineTicks();
    const lockWaits = await sampleLockWaits(database.url);
    const counting = await (await statementTimes(db, database.name)).count();
    projecting =
      processes === 1
        ? await projectHere(db, log, dataKeys, appended, progress)
        : await projectInProcesses(processes, { databaseUrl: database.url, kafkaBrokers, namespace, masterKey }, db, log, progress);
    const lockWaitSeconds = await lockWaits.stop();
    const statements = await counting(appended);
    const machineBusy = busyShare(machineTicks(), machineBefore);
    const postgresCpuMs = cpuMsPerRequest(cpuSeconds([...new Set([...postgresBefore, ...(await backends())])]), postgresCpuBefore, appended);
    const brokerCpuMs = cpuMsPerRequest(brokerPids.length > 0 ? cpuSeconds(brokerPids) : undefined, brokerCpuBefore, appended);
    const projectorRate = projecting.events / projecting.seconds;
    report(
      `projector: ${fmt(projecting.events)} events in ${projecting.seconds.toFixed(2)} s = ${fmt(projectorRate)} events/s${projecting.detail(projectorRate)}`,
    );
    // A projector applies events on its event loop's one thread: busy all the time, it would apply this many.
    const loopBound = projecting.loopBusy > 0 ? projectorRate / projecting.loopBusy : undefined;
    report(
      `each projector's event loop was ${Math.round(projecting.loopBusy * 100)}% busy; ${processes === 1 ? 'one loop' : `${processes} loops`} never waiting would apply at most ${loopBound === undefined ? 'n/a' : fmt(loopBound)} events/s at this cost`,
    );
    report(`its garbage collector paused it ${projecting.gcUsPerEvent.toFixed(1)} µs an event (wall time, so more than its CPU on a busy machine)`);
    const { count: retried, first: firstRetry } = projecting.retries;
    report(`batches tried again: ${retried}${firstRetry === undefined ? '' : ` (the first after: ${firstRetry})`}`);
    const lockWaitUs = (lockWaitSeconds * 1_000_000) / appended;
    report(`Postgres connections waited on locks for ${lockWaitSeconds.toFixed(2)} s in all (${lockWaitUs.toFixed(1)} µs an event)`);
    report(statements.line);
    const postgresUs = microseconds(postgresCpuMs);
    const brokerUs = microseconds(brokerCpuMs);
    const eventPath = machineBound([projecting.cpuUsPerEvent, postgresUs, brokerUs]);
    if (eventPath !== undefined) {
      report(
        `CPU per event: projector ${projecting.cpuUsPerEvent.toFixed(1)} µs, Postgres ${postgresUs} µs, broker ${brokerUs} µs = ${eventPath.usPerEvent.toFixed(1)} µs; ` +
          `the machine was ${machineBusy === 'n/a' ? 'n/a' : `${Math.round(machineBusy * 100)}%`} busy, and at this cost its ${eventPath.cores} cores apply at most ${fmt(eventPath.eventsPerSecond)} events/s however the work is spread`,
      );
    }

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('create table copy_floor (tenant_id uuid, idempotency_key text, type text, occurred_at timestamptz, body jsonb)');
    const escape = (text: string) => text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');
    const copyStarted = performance.now();
    await pipeline(
      Readable.from(
        (function* () {
          // The same events again (the script is deterministic), made anew rather than held since they were appended.
          for (const e of take(tenants, traffic.events, 'bulk', concurrent))
            yield `${e.tenant}\t${escape(e.idempotency_key)}\t${e.type}\t${e.occurred_at}\t${escape(JSON.stringify(e))}\n`;
        })(),
      ),
      client.query(copyFrom('copy copy_floor from stdin')),
    );
    const copySeconds = (performance.now() - copyStarted) / 1_000;
    const copyRate = appended / copySeconds;
    report(
      `COPY floor: ${fmt(appended)} rows into an unindexed table in ${copySeconds.toFixed(2)} s = ${fmt(copyRate)} rows/s; projector at ${(projectorRate / copyRate).toFixed(2)}x of it`,
    );
    await client.end();

    // Freshness: a steady 1,000 events/s in ticks of 50, each event timed from its append to the commit of its position.
    const live = [...take(tenants, freshnessSeconds * 1_000, 'live', concurrent)];
    const liveRecords = await ingestedRecords(live, sealing);
    const pending: { position: LogPosition; at: number }[] = [];
    const latencies: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling || pending.length > 0) {
        const rows: { topic: string; partition: number; next_offset: string }[] = await db.query(
          sql`select topic, partition, next_offset::text as next_offset from projector_positions`,
        );
        const now = performance.now();
        const next = new Map(rows.map((r) => [`${r.topic}:${r.partition}`, BigInt(r.next_offset)]));
        for (let i = pending.length - 1; i >= 0; i--) {
          const p = pending[i];
          if (p && BigInt(p.position.offset) < (next.get(`${p.position.topic}:${p.position.partition}`) ?? 0n)) {
            latencies.push(now - p.at);
            pending.splice(i, 1);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const tick = 50;
    const freshStart = performance.now();
    for (let i = 0; i < live.length; i += tick) {
      const due = freshStart + (i / 1_000) * 1_000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const at = performance.now();
      void log.append(liveRecords.slice(i, i + tick)).then((positions) => {
        for (const position of positions) if (position.topic === TOPICS.events) pending.push({ position, at });
      });
      progress(`freshness: appended ${fmt(i + tick)} / ${fmt(live.length)} events at 1,000/s, ${fmt(latencies.length)} visible`);
    }
    await log.append([]);
    while (latencies.length < live.length) await new Promise((resolve) => setTimeout(resolve, 20));
    polling = false;
    await poller;
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    report(
      `freshness at 1,000 events/s for ${freshnessSeconds} s: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${(latencies.at(-1) ?? 0).toFixed(0)} ms (append to visible in the read models)`,
    );

    return {
      events: appended,
      sealed,
      concurrent_calls: concurrent,
      tenants: tenantCount,
      processes,
      broker_warm: warmBroker,
      projector_events_per_s: Math.round(projectorRate),
      projector_events_per_s_per_process: Math.round(projectorRate / processes),
      copy_rows_per_s: Math.round(copyRate),
      projector_to_copy_ratio: Number((projectorRate / copyRate).toFixed(3)),
      projector_cpu_us_per_event: Number(projecting.cpuUsPerEvent.toFixed(1)),
      projector_loop_busy_share: Number(projecting.loopBusy.toFixed(2)),
      projector_loop_bound_events_per_s: loopBound === undefined ? 'n/a' : Math.round(loopBound),
      projector_gc_pause_us_per_event: Number(projecting.gcUsPerEvent.toFixed(1)),
      postgres_cpu_us_per_event: postgresUs,
      projector_peak_rss_mb: projecting.peakRssMb ?? 'n/a',
      projector_batch_retries: projecting.retries.count,
      postgres_lock_wait_us_per_event: Number(lockWaitUs.toFixed(1)),
      broker_cpu_us_per_event: brokerUs,
      event_path_cpu_us_per_event: eventPath === undefined ? 'n/a' : Number(eventPath.usPerEvent.toFixed(1)),
      machine_cores: eventPath?.cores ?? 'n/a',
      machine_busy_share: machineBusy,
      machine_bound_events_per_s: eventPath === undefined ? 'n/a' : Math.round(eventPath.eventsPerSecond),
      freshness_p50_ms: Math.round(p50),
      freshness_p99_ms: Math.round(p99),
      ...statements.figures,
    };
  } finally {
    await projecting?.stop();
    await log.close();
    await db.dispose();
    await database.drop();
  }
};

export default bench;
