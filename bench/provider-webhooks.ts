import { createHmac, randomBytes } from 'node:crypto';
import { textOption, wholeNumber } from './args';
import { startGatewayProcess } from './gateway-process';
import { pacedLoad, type PacedRequest } from './paced-load';
import { phaseFigures, phaseLine, startPhaseCpu } from './phase-cpu';
import { statementTimes } from './statement-times';
import type { Bench } from './run';

/**
 * A provider sending `--rate` webhooks a second (default 1,000) for
 * `--seconds` to a Retell connection of each of `--tenants` tenants (1 by
 * default) in turn, of a real gateway process (real broker, real
 * Postgres), each a new call's call_started signed as
 * retell-sdk signs, evenly paced (open loop), the limits out of the way:
 * what is measured is verification, mapping and the intake, and the CPU a
 * request cost the gateway, its Postgres, the broker and the bench itself.
 */
function options(args: string[]): { seconds: number; rate: number; tenants: number; connections: number; profileDir: string } {
  return {
    seconds: wholeNumber(args, 'seconds', 10),
    rate: wholeNumber(args, 'rate', 1_000),
    tenants: wholeNumber(args, 'tenants', 1),
    connections: wholeNumber(args, 'connections', 64),
    // Where the gateway writes a V8 CPU profile when it stops, as bench ingest's --cpu-prof.
    profileDir: textOption(args, 'cpu-prof', ''),
  };
}

const bench: Bench = async (context) => {
  const { seconds, rate, tenants, connections, profileDir } = options(context.args);
  const gateway = await startGatewayProcess(context, 'providers', { profileDir });
  try {
    const origin = gateway.gateways.url;
    // Each tenant with a Retell connection of its own: their requests take turns, and their new calls' keys are theirs.
    const retell: { apiKey: string; path: string }[] = [];
    for (let t = 0; t < tenants; t++) {
      const tenant = await gateway.createTenant();
      const apiKey = `key_bench_${randomBytes(12).toString('hex')}`;
      const created = await fetch(`${origin}/api/v1/providers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'retell', name: 'bench', credentials: { apiKey } }),
      });
      if (created.status !== 201) throw new Error(`connecting Retell answered ${created.status}: ${await created.text()}`);
      const { connection } = (await created.json()) as { connection: { webhookUrl: string } };
      retell.push({ apiKey, path: new URL(connection.webhookUrl).pathname });
      context.progress(`tenants with a Retell connection: ${t + 1} of ${tenants}`);
    }

    let sent = 0;
    const next = (): PacedRequest => {
      const { apiKey, path } = retell[sent % retell.length] as { apiKey: string; path: string };
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
      return { body, path, headers: { 'content-type': 'application/json', 'x-retell-signature': signature } };
    };
    const label = `Retell webhooks at ${rate}/s, paced${tenants > 1 ? `, from ${tenants} tenants` : ''}`;
    await pacedLoad({ url: origin, rate: Math.min(rate, 200), seconds: 2, connections, next });
    await gateway.analyze();
    const statements = await statementTimes(gateway.admin, gateway.database);
    const counting = await statements.count();
    const phase = await startPhaseCpu(gateway.processes);
    const result = await pacedLoad({
      url: origin,
      rate,
      seconds,
      connections,
      next,
      onSecond: (second) => context.progress(`${label}: ${second} of ${seconds} s`),
    });
    const cpu = await phase(result.answered);
    const statementFigures = await counting(result.answered, '');
    context.report(`${label}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
    context.report(`${label}: ${phaseLine(cpu, 'request')}`);
    context.report(`${label}: ${statementFigures.line}`);
    return {
      rate,
      tenants,
      seconds,
      connections,
      rps: Math.round(result.rps),
      p50_ms: result.p50,
      p99_ms: result.p99,
      non_2xx: result.non2xx,
      errors: result.errors,
      ...phaseFigures('', 'request', cpu),
      ...statementFigures.figures,
    };
  } finally {
    await gateway.stop();
  }
};

export default bench;
