import autocannon, { type Result } from 'autocannon';
import { signBody } from '@earshot/auth';
import { sql } from '@earshot/db';
import { serve, startGatewayProcess, type Credentials } from './gateway-process';
import { pacedLoad, type PacedRequest } from './paced-load';
import { cpuMsPerRequest, cpuSeconds } from './process-cpu';
import type { Bench, BenchContext } from './run';

/**
 * Signed ingest requests at a fixed concurrency against a real gateway
 * process (real broker, real Postgres), beside the same load on a bare
 * Fastify route that answers 202, in the same run on the same machine; then
 * the gateway again at half its peak rate, where p99 must stay ≤ 50 ms.
 * The half-peak run is an evenly paced open-loop load (see paced-load.ts):
 * autocannon's rate limit sends each second's quota as one burst, so its p99
 * measured the burst, not the rate.
 */
function options(args: string[]): { seconds: number; connections: number } {
  const value = (name: string, fallback: number) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? Number(args[at + 1]) : fallback;
  };
  return { seconds: value('seconds', 10), connections: value('connections', 32) };
}

const bench: Bench = async (context) => {
  const { seconds, connections } = options(context.args);
  const gatewayProcess = await startGatewayProcess(context, 'ingest');
  const { admin, database, children } = gatewayProcess;
  try {
    const gateway = gatewayProcess.origin;
    const bare = await serve(children, ['--input-type=module', '-e', BARE_SERVER], {});
    const credentials = await gatewayProcess.createTenant();
    const load = (target: string, label: string, extra: Partial<autocannon.Options> = {}) =>
      run(context, target, label, credentials, connections, seconds, extra);

    await load(gateway, 'warm-up', { duration: 3 });
    const bareRun = await load(bare, 'bare Fastify 202');
    // Where the cores go during the peak run: the gateway, its Postgres connections and this process (autocannon, signing).
    const backends = async () =>
      ((await admin.query(sql`select pid from pg_stat_activity where datname = ${database}`)) as { pid: number }[]).map((r) => r.pid);
    const gatewayPid = gatewayProcess.pid;
    const postgresPids = await backends();
    const brokerPids = context.brokerPid === undefined ? [] : [context.brokerPid];
    const before = {
      gateway: cpuSeconds([gatewayPid]),
      postgres: cpuSeconds(postgresPids),
      broker: brokerPids.length > 0 ? cpuSeconds(brokerPids) : undefined,
      bench: process.cpuUsage(),
    };
    const gatewayRun = await load(gateway, 'gateway (signed ingest)');
    const benchCpu = process.cpuUsage(before.bench);
    const perRequest = (after: number | undefined, start: number | undefined) => cpuMsPerRequest(after, start, gatewayRun.requests.total);
    const cpu = {
      gateway_cpu_ms_per_request: perRequest(cpuSeconds([gatewayPid]), before.gateway),
      // A connection the pool opened during the run counts whole.
      postgres_cpu_ms_per_request: perRequest(cpuSeconds([...new Set([...postgresPids, ...(await backends())])]), before.postgres),
      bench_cpu_ms_per_request: perRequest((benchCpu.user + benchCpu.system) / 1e6, 0),
      // The whole broker (deliveries and the other topics too): what else a gateway request costs this machine.
      broker_cpu_ms_per_request: before.broker === undefined ? 'n/a' : perRequest(cpuSeconds(brokerPids), before.broker),
    };
    context.report(
      `CPU per gateway request: gateway ${cpu.gateway_cpu_ms_per_request} ms, its Postgres connections ${cpu.postgres_cpu_ms_per_request} ms, load generator ${cpu.bench_cpu_ms_per_request} ms, broker ${cpu.broker_cpu_ms_per_request} ms`,
    );
    const halfRate = Math.max(1, Math.floor(gatewayRun.requests.average / 2));
    const halfLabel = `gateway at half peak, paced (${halfRate} req/s)`;
    let halfSent = 0;
    const halfRun = await pacedLoad({
      url: `${gateway}/api/v1/webhooks/ingest`,
      rate: halfRate,
      seconds,
      connections,
      next: () => signedRequest(credentials, `bench-${process.pid}-half-${halfSent++}`),
      onSecond: (second) => context.progress(`${halfLabel}: ${second} of ${seconds} s`),
    });
    context.report(
      `${halfLabel}: ${Math.round(halfRun.rps)} req/s, p50 ${halfRun.p50} ms, p99 ${halfRun.p99} ms, non-2xx ${halfRun.non2xx}, errors ${halfRun.errors}`,
    );
    const ratio = gatewayRun.requests.average / bareRun.requests.average;
    context.report(`ratio gateway / bare: ${ratio.toFixed(2)} (target ≥ 0.30); p99 at half peak ${halfRun.p99} ms (target ≤ 50)`);
    return {
      connections,
      seconds,
      bare_rps: Math.round(bareRun.requests.average),
      bare_p50_ms: bareRun.latency.p50,
      bare_p99_ms: bareRun.latency.p99,
      gateway_rps: Math.round(gatewayRun.requests.average),
      gateway_p50_ms: gatewayRun.latency.p50,
      gateway_p99_ms: gatewayRun.latency.p99,
      ratio: Number(ratio.toFixed(3)),
      half_peak_rps: Math.round(halfRun.rps),
      half_peak_p50_ms: halfRun.p50,
      half_peak_p99_ms: halfRun.p99,
      ...cpu,
      gateway_non_2xx: gatewayRun.non2xx + halfRun.non2xx,
      gateway_errors: gatewayRun.errors + halfRun.errors,
    };
  } finally {
    await gatewayProcess.stop();
  }
};

export default bench;

const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ bodyLimit: 1024 * 1024 });
app.post('/api/v1/webhooks/ingest', async (request, reply) => reply.status(202).send({ ok: true }));
console.log('listening on ' + (await app.listen({ port: 0, host: '127.0.0.1' })));
`;

async function run(
  context: BenchContext,
  target: string,
  label: string,
  credentials: Credentials,
  connections: number,
  seconds: number,
  extra: Partial<autocannon.Options>,
): Promise<Result> {
  let sent = 0;
  let second = 0;
  const options: autocannon.Options = {
    url: `${target}/api/v1/webhooks/ingest`,
    method: 'POST',
    connections,
    duration: seconds,
    ...extra,
    requests: [
      {
        // Every request is a new event, freshly signed, as a provider would send it.
        setupRequest: (request) => ({ ...request, ...signedRequest(credentials, `bench-${process.pid}-${label.length}-${sent++}`) }),
      },
    ],
  };
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(options, (error: Error | null, done) => (error ? reject(error) : resolve(done)));
    instance.on('tick', () => context.progress(`${label}: ${++second} of ${options.duration} s`));
  });
  context.report(
    `${label}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
  return result;
}

function signedRequest(credentials: Credentials, key: string): PacedRequest {
  const body = JSON.stringify(envelope(key));
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    body,
    headers: {
      authorization: `Bearer ${credentials.apiKey}`,
      'content-type': 'application/json',
      'x-earshot-timestamp': timestamp,
      'x-earshot-signature': signBody(credentials.webhookSecret, timestamp, Buffer.from(body)),
      'x-earshot-provider': 'vapi',
    },
  };
}

function envelope(key: string) {
  return {
    type: 'agent.response.generated',
    version: '2026-01-01',
    idempotency_key: key,
    occurred_at: new Date().toISOString(),
    call: { provider_call_id: `call-${key.slice(-2)}`, agent_id: 'support-agent' },
    data: { turn_id: 'turn_3', latency: { asr_ms: 180, llm_ms: 420, tts_ms: 160, total_ms: 760 }, text: 'Your order ships tomorrow.', model: 'gpt-4o-mini' },
  };
}
