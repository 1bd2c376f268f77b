import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openDatabase, sql, type ConnectionPool } from '@earshot/db';
import type { BenchContext } from './run';

const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const earshot = new URL('../packages/cli/bin/earshot.js', import.meta.url).pathname;

export interface Credentials {
  apiKey: string;
  webhookSecret: string;
}

export interface GatewayProcess {
  /** http://127.0.0.1:<port> of the gateway. */
  origin: string;
  pid: number;
  /** Every process started (the gateway first), for the caller's own processes next to it. */
  children: ChildProcess[];
  admin: ConnectionPool;
  database: string;
  createTenant(): Promise<Credentials>;
  stop(): Promise<void>;
}

/** `earshot serve --target=gateway,keys` (keys creates the tenant) on a fresh database of the bench's Postgres, on its broker, with limits out of the way. */
export async function startGatewayProcess(context: BenchContext, label: string): Promise<GatewayProcess> {
  const database = `bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: context.databaseUrl, poolSize: 1, applicationName: 'bench-admin' });
  await admin.query(sql`create database ${sql.ident(database)}`);
  const url = new URL(context.databaseUrl);
  url.pathname = `/${database}`;
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await admin.query(sql`drop database if exists ${sql.ident(database)} with (force)`);
    await admin.dispose();
  };
  try {
    const origin = await serve(children, [earshot, 'serve', '--target=gateway,keys', '--port', '0'], {
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
    });
    return { origin, pid: children[0]?.pid ?? 0, children, admin, database, createTenant: () => createTenant(origin), stop };
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

/** Starts a node process and answers the URL it prints as `listening on http://…`. */
export function serve(children: ChildProcess[], args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: new URL('..', import.meta.url).pathname,
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
}
