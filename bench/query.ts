import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { createApiKey, createTenant, SCOPES, SecretBox } from '@earshot/auth';
import { DATABASE_MIGRATIONS, migrate, openDatabase, sql, TenantReads, type ConnectionPool, type Statements } from '@earshot/db';
import { PROJECTOR_MIGRATIONS } from '@earshot/projector';
import { METRIC_CATALOGUE } from '@earshot/metrics';
import { callPaging, QUERY_MIGRATIONS } from '@earshot/query';
import { callDetailStatement, callPageStatement, foldTenant, liveStatement, seriesStatement } from '@earshot/read-models';
import { CallListQuerySchema } from '@earshot/contracts';
import { loadGenerator, phaseLine, startPhaseCpu } from './phase-cpu';
import { databaseBackends } from './process-cpu';
import { readyLine } from './ready-line';
import { copyFolds, copyTenant, dropIndexes, templateOf, tenantEvents, type Template } from './query-seed';
import type { Bench, BenchContext } from './run';
import { option } from './args';

/**
 * `npm run bench -- query [--calls N] [--tenants T] [--seconds S] [--connections C] [--keep | --database NAME] [--routes a,b]`:
 * N calls (1,000,000 by default) over T tenants (100), started over the last
 * 30 days, bulk-seeded (bench/query-seed.ts: one tenant through the
 * projector's own functions, the others its rows with their own ids, COPY
 * into tables whose indexes are built after); then
 * a real query process (`earshot serve --target=query`) under autocannon at
 * fixed concurrency, route by route, and beside each route the p50 of the
 * bare SQL statement it runs, in a tenant transaction like the route's.
 * Seeding 1,000,000 calls takes minutes: `--keep` keeps the seeded database
 * (its name is reported) and `--database NAME` runs against it again.
 */
const earshot = new URL('../packages/cli/bin/earshot.js', import.meta.url).pathname;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The read models the bench's calls write to. */
const SEEDED_TABLES = ['calls', 'turns', 'metric_rollups', 'usage_meters'];
/** Tenants loaded at once, one connection each: COPY is bound by the server's CPU, and the machine has two cores. */
const LOADERS = 2;

const bench: Bench = async (context) => {
  const calls = option(context.args, 'calls', 1_000_000);
  const tenants = option(context.args, 'tenants', 100);
  const seconds = option(context.args, 'seconds', 8);
  const connections = option(context.args, 'connections', 8);
  const reused = named(context.args, 'database');
  const keep = reused !== undefined || context.args.includes('--keep');
  const database = reused ?? `bench_query_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: context.databaseUrl, poolSize: 1, applicationName: 'bench-admin' });
  if (!reused) await admin.query(sql`create database ${sql.ident(database)}`);
  const url = new URL(context.databaseUrl);
  url.pathname = `/${database}`;
  const db = openDatabase({ url: url.toString(), poolSize: 4, applicationName: 'bench-query' });
  const reads = new TenantReads({ url: url.toString(), poolSize: 1, applicationName: 'bench-query-reads' });
  const children: ChildProcess[] = [];
  const masterKey = randomBytes(32);
  try {
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS, ...QUERY_MIGRATIONS]);
    const box = new SecretBox(masterKey);
    const seeded = reused ? await seededBefore(db, box) : await seed(context, db, url.toString(), box, calls, tenants);
    const target = await serve(children, {
      // As deployed: production trusts the handlers' types and does not parse each response again (see responseSerializer).
      NODE_ENV: 'production',
      EARSHOT_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      DATABASE_URL: url.toString(),
      KAFKA_BROKERS: context.kafkaBrokers.join(','),
      EARSHOT_LOG_NAMESPACE: `bench-query-${randomBytes(4).toString('hex')}.`,
      EARSHOT_MASTER_KEY: masterKey.toString('base64'),
      EARSHOT_KEY_REQUESTS_PER_MIN: '100000000',
    });
    const { tenantId, apiKey, callIds } = seeded;
    const auth = { authorization: `Bearer ${apiKey}` };
    const deepCursor = await walk(target, auth, 25);
    const now = new Date();
    // On the day grid, as the route puts it: the bare statement is then the route's own.
    const from = new Date(Math.floor((now.getTime() - 30 * DAY) / DAY) * DAY).toISOString();
    const to = now.toISOString();
    const metricsPath = `/api/v1/metrics?name=latency.total_ms.p95&from=${from}&to=${to}&interval=1d`;
    const firstQuery = CallListQuerySchema.parse({});
    const deepQuery = CallListQuerySchema.parse({ cursor: deepCursor });
    const series = { source: METRIC_CATALOGUE['latency.total_ms.p95'].source, from: new Date(from), to: new Date(to), intervalMs: DAY, agentId: undefined };
    // What each route sends the database, nothing more: its one statement.
    const routes: { name: string; paths: string[]; sql: (tx: Statements) => Promise<unknown> }[] = [
      { name: 'calls_first_page', paths: ['/api/v1/calls'], sql: (tx) => tx.query(callPageStatement(firstQuery, callPaging(firstQuery))) },
      { name: 'calls_deep_page', paths: [`/api/v1/calls?cursor=${deepCursor}`], sql: (tx) => tx.query(callPageStatement(deepQuery, callPaging(deepQuery))) },
      {
        name: 'call_detail',
        paths: callIds.map((id) => `/api/v1/calls/${id}`),
        sql: (tx) => tx.query(callDetailStatement(callIds[Math.floor(Math.random() * callIds.length)] ?? '')),
      },
      { name: 'metrics_30d', paths: [metricsPath], sql: (tx) => tx.query(seriesStatement(series)) },
      { name: 'realtime', paths: ['/api/v1/realtime'], sql: (tx) => tx.query(liveStatement(new Date())) },
    ];
    const size = reused ? await sizeOf(db) : { calls, tenants };
    const figures: Record<string, number | string> = { ...size, connections, seconds, calls_per_tenant: Math.round(size.calls / size.tenants) };
    // Where the cores go: the query process, its Postgres connections and this process, which makes the load, per request.
    const queryPid = children[0]?.pid ?? 0;
    const only = named(context.args, 'routes')?.split(',');
    const measured = routes.filter((r) => !only || only.includes(r.name));
    // Every route warms up before any is measured: the first measured would otherwise also pay for compiling the shared code.
    for (const route of measured) await load(target, route.paths, auth, connections, 2);
    for (const route of measured) {
      await load(target, route.paths, auth, connections, 1);
      const phase = await startPhaseCpu({ query: () => [queryPid], postgres: () => databaseBackends(admin, database), load: loadGenerator });
      const result = await load(target, route.paths, auth, connections, seconds);
      const phaseCpu = await phase(result.requests.total);
      const { perUnit: cpu, machineBusy } = phaseCpu;
      const bare = await bareSql(reads.as(tenantId), route.sql, 300);
      context.report(
        `${route.name.padEnd(18)} p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  ${Math.round(result.requests.average)} req/s  non-2xx ${result.non2xx}  | bare SQL p50 ${bare.toFixed(2)} ms  | ${phaseLine(phaseCpu, 'request')}`,
      );
      Object.assign(figures, {
        [`${route.name}_query_cpu_ms`]: cpu.query,
        [`${route.name}_postgres_cpu_ms`]: cpu.postgres,
        [`${route.name}_load_cpu_ms`]: cpu.load,
        [`${route.name}_machine_busy_share`]: machineBusy,
        [`${route.name}_p50_ms`]: result.latency.p50,
        [`${route.name}_p99_ms`]: result.latency.p99,
        [`${route.name}_rps`]: Math.round(result.requests.average),
        [`${route.name}_non_2xx`]: result.non2xx,
        [`${route.name}_sql_p50_ms`]: Number(bare.toFixed(2)),
      });
    }
    return figures;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await reads.dispose();
    await db.dispose();
    if (keep) context.report(`kept the seeded database: run again with --database ${database}`);
    else await admin.query(sql`drop database if exists ${sql.ident(database)} with (force)`);
    await admin.dispose();
  }
};

export default bench;

async function seed(
  context: BenchContext,
  db: ConnectionPool,
  url: string,
  box: SecretBox,
  calls: number,
  tenants: number,
): Promise<{ tenantId: string; apiKey: string; callIds: string[] }> {
  const started = performance.now();
  const elapsed = () => ((performance.now() - started) / 1000).toFixed(1);
  const loaders = await Promise.all(
    Array.from({ length: LOADERS }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  const [client] = loaders;
  if (!client) throw new Error('no loader');
  const now = Date.now();
  // The hour the folder leaves open when the template is folded at `now`: every other tenant's changes before it are folded too.
  const open = new Date(Math.floor(now / HOUR) * HOUR);
  const templates = new Map<number, Promise<{ rows: Template; tenantId: string; callIds: string[] }>>();
  const seeded: { tenantId: string; apiKey: string; callIds: string[] }[] = [];
  let next = 0;
  let done = 0;
  try {
    const indexes = await dropIndexes(client, SEEDED_TABLES);
    await Promise.all(
      loaders.map(async (loader) => {
        for (let t = next++; t < tenants; t = next++) {
          const created = await createTenant(db, box, { name: `bench tenant ${t}` });
          const count = Math.floor(calls / tenants) + (t < calls % tenants ? 1 : 0);
          const id = created.tenant.id;
          let callIds: string[];
          const template = templates.get(count);
          if (!template) {
            // The first tenant of a size is the template: projected, COPYed, and folded by the query service's own folder.
            const made = (async () => {
              context.progress(`seeding: projecting the template tenant's ${count} calls`);
              const rows = await templateOf(loader, id, tenantEvents(id, count, now, 30 * DAY));
              await loader.query('begin');
              const ids = await copyTenant(loader, rows, id);
              await loader.query('commit');
              context.progress(`seeding: folding the template tenant's metric rollups`);
              // The tables have no statistics yet (and no keys until the end): without them the planner loops where it should hash.
              await loader.query('analyze metric_rollups');
              await foldTenant(db, id, new Date(now));
              return { rows, tenantId: id, callIds: ids };
            })();
            templates.set(count, made);
            callIds = (await made).callIds;
          } else {
            const { rows, tenantId: source } = await template;
            await loader.query('begin');
            callIds = await copyTenant(loader, rows, id);
            await copyFolds(loader, source, id, open);
            await loader.query('commit');
          }
          done += count;
          seeded[t] = { tenantId: id, apiKey: created.apiKey, callIds: callIds.slice(0, 1_000) };
          context.progress(
            `seeding: ${done} / ${calls} calls, ${seeded.filter(Boolean).length} / ${tenants} tenants, ${Math.round(done / ((performance.now() - started) / 1000))} calls/s`,
          );
        }
      }),
    );
    for (const [i, definition] of indexes.entries()) {
      context.progress(`seeding: building index ${i + 1} / ${indexes.length} (${elapsed()} s)`);
      await client.query(definition);
    }
    context.progress(`seeding: analyze (${elapsed()} s)`);
    await client.query('analyze');
  } finally {
    await Promise.all(loaders.map((loader) => loader.end()));
  }
  context.report(`seeded ${calls} calls over ${tenants} tenants in ${elapsed()} s`);
  const [first] = seeded;
  if (!first) throw new Error('no tenant seeded');
  return first;
}

function named(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

/** The first tenant of a kept database, with a new key: the old one was shown once, and the master key is new too. */
async function seededBefore(db: ConnectionPool, box: SecretBox): Promise<{ tenantId: string; apiKey: string; callIds: string[] }> {
  const [tenant] = (await db.query(sql`select id from tenants where name = 'bench tenant 0'`)) as { id: string }[];
  if (!tenant) throw new Error('this database holds no bench tenant 0: was it seeded by bench/query with --keep?');
  await db.query(
    sql`update tenants set webhook_secret = ${box.seal(`whsec_${randomBytes(32).toString('base64url')}`)}, previous_webhook_secret = null where id = ${tenant.id}`,
  );
  const key = await createApiKey(
    db,
    {
      tenantId: tenant.id,
      name: 'bench',
      scopes: SCOPES,
      environment: 'production',
      workspace: 'default',
      ipAllowlist: [],
      expiresAt: null,
      createdBy: { kind: 'operator' },
    },
    new Date(),
  );
  const calls = (await db.query(sql`select id from calls where tenant_id = ${tenant.id} order by started_at desc limit 1000`)) as { id: string }[];
  return { tenantId: tenant.id, apiKey: key.secret, callIds: calls.map((c) => c.id) };
}

async function sizeOf(db: ConnectionPool): Promise<{ calls: number; tenants: number }> {
  const [row] = (await db.query(sql`select (select count(*) from calls)::int as calls, (select count(distinct tenant_id) from calls)::int as tenants`)) as {
    calls: number;
    tenants: number;
  }[];
  return row ?? { calls: 0, tenants: 0 };
}

/** Follows nextCursor `pages` pages of 200 deep, for the deep-page route. */
async function walk(target: string, headers: Record<string, string>, pages: number): Promise<string> {
  let cursor = '';
  for (let i = 0; i < pages; i++) {
    const response = await fetch(`${target}/api/v1/calls?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers });
    const page = (await response.json()) as { nextCursor: string | null };
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return cursor;
}

async function load(target: string, paths: string[], headers: Record<string, string>, connections: number, duration: number): Promise<Result> {
  let next = 0;
  return autocannon({
    url: target,
    connections,
    duration,
    headers,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] ?? '/' }) }],
  });
}

/** The p50 of the bare statements, run one at a time as the tenant, as the route runs them. */
async function bareSql(tenant: Statements, statements: (tx: Statements) => Promise<unknown>, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await statements(tenant);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

async function serve(children: ChildProcess[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [earshot, 'serve', '--target=query', '--port', '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [, url = ''] = await readyLine(child, /listening on (http:\/\/\S+)/, 'earshot serve');
  return url;
}
