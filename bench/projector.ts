import { randomBytes, randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { StoredEvent } from '@earshot/contracts';
import { DATABASE_MIGRATIONS, migrate, openDatabase, sql } from '@earshot/db';
import { createKafkaLog, TOPICS, type EventLog, type LogPosition } from '@earshot/log';
import { PROJECTOR_MIGRATIONS, startProjector } from '@earshot/projector';
import { eventRecord, callScript, waitUntilCaughtUp } from '@earshot/testing';
import { cpuMsPerRequest, cpuSeconds } from './process-cpu';
import type { Bench } from './run';

/**
 * The projector from the real broker into the real Postgres: N pre-appended
 * events of 30-turn calls (transcripts, tool calls, outcomes) across tenants,
 * then a plain COPY of as many rows into an unindexed table (the floor of what
 * this Postgres takes), then freshness at a steady 1,000 events/s.
 * Options: --events N (default 200000), --freshness-seconds S (default 15).
 */
const TENANTS = Array.from({ length: 8 }, () => randomUUID());

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

function* calls(prefix: string): Generator<StoredEvent[]> {
  for (let n = 0; ; n++) {
    yield callScript({
      tenant: TENANTS[n % TENANTS.length] ?? '',
      providerCallId: `${prefix}-${n}`,
      agentId: `agent_${n % 5}`,
      turns: 30,
      outcome: true,
      ending: n % 10 === 0 ? 'transferred' : n % 17 === 0 ? 'failed' : 'completed',
      startMs: Date.parse('2026-01-08T09:00:00Z') + n * 4_000,
    });
  }
}

function take(count: number, prefix: string): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (const call of calls(prefix)) {
    events.push(...call);
    if (events.length >= count) break;
  }
  return events.slice(0, count);
}

const percentile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const bench: Bench = async ({ kafkaBrokers, databaseUrl, args, progress, report }) => {
  const count = option(args, '--events', 200_000);
  const freshnessSeconds = option(args, '--freshness-seconds', 15);
  const dbName = `bench_projector_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: databaseUrl, poolSize: 1, applicationName: 'bench-admin' });
  await admin.query(sql`create database ${sql.ident(dbName)}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${dbName}`;
  const db = openDatabase({ url: url.toString(), poolSize: 10, applicationName: 'bench-projector' });
  const log = await createKafkaLog({ brokers: kafkaBrokers, clientId: 'bench-projector', namespace: `bench-projector-${randomBytes(4).toString('hex')}.` });
  try {
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);

    const events = take(count, 'bulk');
    for (let i = 0; i < events.length; i += 2_000) {
      await log.append(events.slice(i, i + 2_000).map(eventRecord));
      progress(`appending ${fmt(Math.min(i + 2_000, events.length))} / ${fmt(events.length)} events`);
    }
    report(`appended ${fmt(events.length)} events (${fmt(events.length / 137)} calls of 30 turns, ${TENANTS.length} tenants)`);

    let applied = 0;
    let batches = 0;
    let started = 0;
    let cpuAtStart: NodeJS.CpuUsage | undefined;
    const backends = async () => ((await admin.query(sql`select pid from pg_stat_activity where datname = ${dbName}`)) as { pid: number }[]).map((r) => r.pid);
    const joining = performance.now();
    // Timed from the moment the first batch arrives: joining the consumer group is a one-off, reported apart.
    const timedLog: EventLog = {
      ...log,
      consume: (options) =>
        log.consume({
          ...options,
          onBatch: (records) => {
            if (started === 0) {
              started = performance.now();
              cpuAtStart = process.cpuUsage();
            }
            return options.onBatch(records);
          },
        }),
    };
    // Postgres CPU: the connections open before the run from where they were, those opened during it from zero.
    const postgresBefore = await backends();
    const postgresCpuBefore = cpuSeconds(postgresBefore);
    const projector = await startProjector({
      db,
      log: timedLog,
      onBatch: (o) => {
        applied += o.applied + o.duplicates + o.deadLettered;
        batches += 1;
        const seconds = (performance.now() - started) / 1_000;
        progress(`projecting ${fmt(applied)} / ${fmt(events.length)} events, ${fmt(applied / seconds)} events/s`);
      },
    });
    await waitUntilCaughtUp(db, log);
    const projectSeconds = (performance.now() - started) / 1_000;
    const projectorCpu = process.cpuUsage(cpuAtStart);
    const projectorCpuUs = (projectorCpu.user + projectorCpu.system) / events.length;
    const postgresCpuMs = cpuMsPerRequest(cpuSeconds([...new Set([...postgresBefore, ...(await backends())])]), postgresCpuBefore, events.length);
    const projectorRate = events.length / projectSeconds;
    report(
      `projector: ${fmt(events.length)} events in ${projectSeconds.toFixed(2)} s = ${fmt(projectorRate)} events/s in ${fmt(batches)} batches (joining the consumer group took ${((started - joining) / 1_000).toFixed(1)} s more)`,
    );

    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query('create table copy_floor (tenant_id uuid, idempotency_key text, type text, occurred_at timestamptz, body jsonb)');
    const escape = (text: string) => text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');
    const copyStarted = performance.now();
    await pipeline(
      Readable.from(
        (function* () {
          for (const e of events) yield `${e.tenant}\t${escape(e.idempotency_key)}\t${e.type}\t${e.occurred_at}\t${escape(JSON.stringify(e))}\n`;
        })(),
      ),
      client.query(copyFrom('copy copy_floor from stdin')),
    );
    const copySeconds = (performance.now() - copyStarted) / 1_000;
    const copyRate = events.length / copySeconds;
    report(
      `COPY floor: ${fmt(events.length)} rows into an unindexed table in ${copySeconds.toFixed(2)} s = ${fmt(copyRate)} rows/s; projector at ${(projectorRate / copyRate).toFixed(2)}x of it`,
    );
    await client.end();

    // Freshness: a steady 1,000 events/s in ticks of 50, each event timed from its append to the commit of its position.
    const live = take(freshnessSeconds * 1_000, 'live');
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
      void log.append(live.slice(i, i + tick).map(eventRecord)).then((positions) => {
        for (const position of positions) if (position.topic === TOPICS.events) pending.push({ position, at });
      });
      progress(`freshness: appended ${fmt(i + tick)} / ${fmt(live.length)} events at 1,000/s, ${fmt(latencies.length)} visible`);
    }
    await log.append([]);
    while (latencies.length < live.length) await new Promise((resolve) => setTimeout(resolve, 20));
    polling = false;
    await poller;
    await projector.stop();
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);
    report(
      `freshness at 1,000 events/s for ${freshnessSeconds} s: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${(latencies.at(-1) ?? 0).toFixed(0)} ms (append to visible in the read models)`,
    );

    return {
      events: events.length,
      projector_events_per_s: Math.round(projectorRate),
      copy_rows_per_s: Math.round(copyRate),
      projector_to_copy_ratio: Number((projectorRate / copyRate).toFixed(3)),
      projector_cpu_us_per_event: Number(projectorCpuUs.toFixed(1)),
      postgres_cpu_us_per_event: postgresCpuMs === 'n/a' ? 'n/a' : Number((postgresCpuMs * 1_000).toFixed(1)),
      freshness_p50_ms: Math.round(p50),
      freshness_p99_ms: Math.round(p99),
    };
  } finally {
    await log.close();
    await db.dispose();
    await admin.query(sql`drop database if exists ${sql.ident(dbName)} with (force)`);
    await admin.dispose();
  }
};

export default bench;
