import { randomBytes } from 'node:crypto';
import { openDatabase, sql, type ConnectionPool } from '@earshot/db';
import { startGateways, type Gateways } from './gateways';
import { loadGenerator } from './phase-cpu';
import { databaseBackends } from './process-cpu';
import type { BenchContext } from './run';

const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** What the bench's tenant signs and authenticates with. */
export interface Credentials {
  apiKey: string;
  webhookSecret: string;
}

export interface GatewayProcess {
  /** Its url is http://127.0.0.1:<port> of the gateway (of all of them, with several processes). */
  gateways: Gateways;
  admin: ConnectionPool;
  database: string;
  createTenant(): Promise<Credentials>;
  /**
   * Gives the database's tables statistics, as a deployed database has: the
   * plans every connection made of a fresh, near-empty table (and keeps)
   * scan it whole, and autovacuum takes a minute to say it has grown, longer
   * than a phase runs. The idempotency keys' answers, an update joined to the
   * keys then, scanned 19,000 rows a statement by the end of a batch-1 peak.
   */
  analyze(): Promise<void>;
  /** The processes an event's path runs in here, for startPhaseCpu: the gateways, their Postgres connections, the broker, and the bench's own. */
  processes: EventPathProcesses;
  stop(): Promise<void>;
}

type EventPathProcesses = Record<'gateway' | 'postgres' | 'broker' | 'load', () => readonly number[] | Promise<readonly number[]>>;

export interface GatewayProcessOptions {
  /** Gateway processes behind the one port (node:cluster); 1 by default. */
  processes?: number;
  /** Where each gateway writes a V8 CPU profile when it stops; none by default. */
  profileDir?: string;
}

/**
 * `earshot serve --target=gateway,keys` (keys creates the tenant) on a fresh
 * database of the bench's Postgres, on its broker, with limits out of the
 * way; stopping drops the database.
 */
export async function startGatewayProcess(context: BenchContext, label: string, options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
  const database = `bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: context.databaseUrl, poolSize: 1, applicationName: 'bench-admin' });
  await admin.query(sql`create database ${sql.ident(database)}`);
  const url = new URL(context.databaseUrl);
  url.pathname = `/${database}`;
  let gateways: Gateways | undefined;
  const stop = async () => {
    await gateways?.stop();
    await admin.query(sql`drop database if exists ${sql.ident(database)} with (force)`);
    await admin.dispose();
  };
  try {
    gateways = await startGateways({
      processes: options.processes ?? 1,
      profileDir: options.profileDir ?? '',
      env: {
        NODE_ENV: 'test',
        DATABASE_URL: url.toString(),
        KAFKA_BROKERS: context.kafkaBrokers.join(','),
        EARSHOT_LOG_NAMESPACE: `bench-${label}-${randomBytes(4).toString('hex')}.`,
        EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
        EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
        // The limits would stop the load long before it measures anything.
        EARSHOT_INGEST_REQUESTS_PER_MIN: '100000000',
        EARSHOT_INGEST_EVENTS_PER_MIN: '100000000',
        EARSHOT_KEY_REQUESTS_PER_MIN: '100000000',
      },
    });
    const { url: origin } = gateways;
    const analyze = async () => {
      const db = openDatabase({ url: url.toString(), poolSize: 1, applicationName: 'bench-admin' });
      try {
        await db.query(sql`analyze`);
      } finally {
        await db.dispose();
      }
    };
    const serving = gateways;
    const processes: EventPathProcesses = {
      gateway: () => serving.pids,
      postgres: () => databaseBackends(admin, database),
      // The whole broker (deliveries and the other topics too): what else an event costs this machine.
      broker: () => (context.brokerPid === undefined ? [] : [context.brokerPid]),
      load: loadGenerator,
    };
    return { gateways, admin, database, createTenant: () => createTenant(origin), analyze, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function createTenant(gateway: string): Promise<Credentials> {
  const response = await fetch(`${gateway}/api/v1/admin/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  });
  if (response.status !== 201) throw new Error(`creating the bench tenant answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Credentials;
}
