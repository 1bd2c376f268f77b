import { type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { openDatabase, sql } from '@earshot/db';
import { ADMIN_TOKEN, createTenant, serve } from './ingest';
import { pacedLoad, type PacedRequest } from './paced-load';
import type { Bench } from './run';

/**
 * A provider sending `--rate` webhooks a second (default 1,000) for
 * `--seconds` to one Retell connection of a real gateway process (real
 * broker, real Postgres), each a new call's call_started signed as
 * retell-sdk signs, evenly paced (open loop). The tenant's ingest limits
 * are set to let the rate through, as a tenant expecting that traffic would
 * have them: what is measured is verification, mapping and the intake.
 */
function options(args: string[]): { seconds: number; rate: number; connections: number } {
  const value = (name: string, fallback: number) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? Number(args[at + 1]) : fallback;
  };
  return { seconds: value('seconds', 10), rate: value('rate', 1_000), connections: value('connections', 64) };
}

const bench: Bench = async (context) => {
  const { seconds, rate, connections } = options(context.args);
  const database = `bench_providers_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ url: context.databaseUrl, poolSize: 1, applicationName: 'bench-admin' });
  await admin.query(sql`create database ${sql.ident(database)}`);
  const url = new URL(context.databaseUrl);
  url.pathname = `/${database}`;
  const children: ChildProcess[] = [];
  const perMinute = String(rate * 60 * 2);
  try {
    const earshot = new URL('../packages/cli/bin/earshot.js', import.meta.url).pathname;
    const origin = await serve(children, [earshot, 'serve', '--target=gateway,keys', '--port', '0'], {
      NODE_ENV: 'test',
      DATABASE_URL: url.toString(),
      KAFKA_BROKERS: context.kafkaBrokers.join(','),
      EARSHOT_LOG_NAMESPACE: `bench-providers-${randomBytes(4).toString('hex')}.`,
      EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
      EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
      EARSHOT_INGEST_REQUESTS_PER_MIN: perMinute,
      EARSHOT_INGEST_EVENTS_PER_MIN: perMinute,
    });
    const tenant = await createTenant(origin);
    const apiKey = `key_bench_${randomBytes(12).toString('hex')}`;
    const created = await fetch(`${origin}/api/v1/providers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'retell', name: 'bench', credentials: { apiKey } }),
    });
    if (created.status !== 201) throw new Error(`connecting Retell answered ${created.status}: ${await created.text()}`);
    const { connection } = (await created.json()) as { connection: { webhookUrl: string } };

    let sent = 0;
    const next = (): PacedRequest => {
      const now = Date.now();
      const body = JSON.stringify({
        event: 'call_started',
        call: {
          call_id: `call_bench_${process.pid}_${sent++}`,
          agent_id: 'agent_bench',
          call_type: 'phone_call',
          call_status: 'ongoing',
          start_timestamp: now,
        },
      });
      const signature = `v=${now},d=${createHmac('sha256', apiKey)
        .update(body + String(now))
        .digest('hex')}`;
      return { body, headers: { 'content-type': 'application/json', 'x-retell-signature': signature } };
    };
    const label = `Retell webhooks at ${rate}/s, paced`;
    await pacedLoad({ url: connection.webhookUrl, rate: Math.min(rate, 200), seconds: 2, connections, next });
    const result = await pacedLoad({
      url: connection.webhookUrl,
      rate,
      seconds,
      connections,
      next,
      onSecond: (second) => context.progress(`${label}: ${second} of ${seconds} s`),
    });
    context.report(`${label}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
    return {
      rate,
      seconds,
      connections,
      rps: Math.round(result.rps),
      p50_ms: result.p50,
      p99_ms: result.p99,
      non_2xx: result.non2xx,
      errors: result.errors,
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await admin.query(sql`drop database if exists ${sql.ident(database)} with (force)`);
    await admin.dispose();
  }
};

export default bench;
