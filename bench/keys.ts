import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { AUTH_MIGRATIONS, createTenant, SecretBox } from '@earshot/auth';
import { KEY_ENVIRONMENTS } from '@earshot/contracts';
import { RATE_LIMIT_MIGRATIONS } from '@earshot/rate-limit';
import { DATABASE_MIGRATIONS, migrate, openDatabase, sql, type ConnectionPool } from '@earshot/db';
import { apiScope, buildHttp, openAccess } from '@earshot/server';
import type { Bench } from './run';
import { option } from './args';

/**
 * `npm run bench -- keys [--seconds S] [--connections C]`: the one auth hook
 * in front of a route that does nothing else, under autocannon, with the key
 * cache (its change check, and usage counted in memory) and with a database
 * lookup per request; the usage writes per request; and how long a
 * revocation made elsewhere takes to be refused by a process keeping the key.
 */
async function authenticatedApp(db: ConnectionPool, secrets: SecretBox, keyCacheMs: number) {
  const app = buildHttp();
  const now = () => new Date();
  const opened = openAccess({ db, secrets, now, report: () => () => undefined }, { keyCacheMs });
  await app.register(apiScope, { access: opened.access, adminToken: undefined, environments: KEY_ENVIRONMENTS, keyRequestsPerMinute: 1e9, now });
  app.get('/ping', { config: { policy: { auth: 'apiKey', scope: 'keys:read' } } }, async () => ({ ok: true }));
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin,
    stop: async () => {
      await app.close();
      await opened.stop();
    },
  };
}

const bench: Bench = async (context) => {
  const seconds = option(context.args, 'seconds', 10);
  const connections = option(context.args, 'connections', 32);
  const name = `bench_keys_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: context.databaseUrl, poolSize: 1, applicationName: 'bench-keys' });
  await admin.query(sql`create database ${sql.ident(name)}`);
  const url = new URL(context.databaseUrl);
  url.pathname = `/${name}`;
  const db = openDatabase({ url: url.toString(), poolSize: 20, applicationName: 'bench-keys' });
  try {
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS, RATE_LIMIT_MIGRATIONS]);
    const box = new SecretBox(randomBytes(32));
    const tenant = await createTenant(db, box, { name: 'Bench' });
    const cached = await authenticatedApp(db, box, 10_000);
    const uncached = await authenticatedApp(db, box, 0);
    const headers = { authorization: `Bearer ${tenant.apiKey}` };
    const load = async (origin: string, label: string) => {
      context.report(`${label}: ${connections} connections for ${seconds} s`);
      const result = await autocannon({ url: `${origin}/ping`, connections, duration: seconds, headers });
      context.report(
        `${label}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
      );
      return result;
    };
    const usageWrites = async () => {
      const [row] = (await db.query(sql`select (n_tup_ins + n_tup_upd)::int as writes from pg_stat_user_tables where relname = 'api_key_usage'`)) as {
        writes: number;
      }[];
      return row?.writes ?? 0;
    };
    // Statistics reach pg_stat_user_tables with a delay: wait them out before and after.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const writesBefore = await usageWrites();
    const withCache = await load(cached.origin, 'kept keys');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const usageWritesPerRequest = ((await usageWrites()) - writesBefore) / withCache.requests.total;
    const withoutCache = await load(uncached.origin, 'a lookup per request');

    const propagation: number[] = [];
    for (let i = 0; i < 10; i++) {
      const other = await createTenant(db, box, { name: `Revoked ${i}` });
      const probe = () => fetch(`${cached.origin}/ping`, { headers: { authorization: `Bearer ${other.apiKey}` } });
      await probe();
      const revokedAt = performance.now();
      // Revoked as another process would: this process is not told, it must learn it from the change counter.
      await db.query(sql`update api_keys set status = 'revoked' where tenant_id = ${other.tenant.id}`);
      while ((await probe()).status !== 401) await new Promise((resolve) => setTimeout(resolve, 5));
      propagation.push(performance.now() - revokedAt);
    }
    propagation.sort((a, b) => a - b);
    context.report(`revocation made elsewhere refused after: median ${Math.round(propagation[4] ?? 0)} ms, worst ${Math.round(propagation.at(-1) ?? 0)} ms`);
    await cached.stop();
    await uncached.stop();
    return {
      keptRequestsPerSecond: Math.round(withCache.requests.average),
      keptP99Ms: withCache.latency.p99,
      lookupRequestsPerSecond: Math.round(withoutCache.requests.average),
      lookupP99Ms: withoutCache.latency.p99,
      usageWritesPerRequest: Number(usageWritesPerRequest.toFixed(5)),
      revocationMedianMs: Math.round(propagation[4] ?? 0),
      revocationWorstMs: Math.round(propagation.at(-1) ?? 0),
    };
  } finally {
    await db.dispose();
    await admin.query(sql`drop database if exists ${sql.ident(name)} with (force)`);
    await admin.dispose();
  }
};

export default bench;
