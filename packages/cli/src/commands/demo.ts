import { parseArgs } from 'node:util';
import { loadConfig } from '@earshot/config';
import type { CommandRunner } from '../command-runner';
import { demoFile, readDemoCredentials } from '../demo/demo-credentials';
import { DEFAULT_EVENTS_PER_SECOND, sendDemoTraffic, type DemoTarget } from '../demo/demo-sender';
import { generateDemoTraffic } from '../demo/demo-traffic';
import { sendOtlpExports } from '../demo/otlp-sender';
import { generateOtlpExports } from '../demo/otlp-sessions';
import { localOrigin } from '../local-instance';

const positive = (name: string, text: string | undefined, fallback: number): number => {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, not "${text}"`);
  return value;
};

/**
 * `earshot demo [--calls N] [--rate R] [--seed S] [--url U --key K --secret S]`:
 * streams realistic signed calls into a running instance through its ingest
 * endpoint. Without --key/--secret it uses the demonstration credentials of
 * the instance whose data directory is here (demo.json). With --otlp it
 * streams LiveKit- and Pipecat-shaped sessions as OTLP traces instead, to
 * POST /v1/traces (the key alone: no signature).
 */
export const demoCommand: CommandRunner = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        calls: { type: 'string' },
        rate: { type: 'string' },
        seed: { type: 'string' },
        url: { type: 'string' },
        key: { type: 'string' },
        secret: { type: 'string' },
        otlp: { type: 'boolean' },
      },
      strict: true,
    });
    const config = loadConfig();
    const calls = Math.round(positive('calls', values.calls, 50));
    const rate = positive('rate', values.rate, DEFAULT_EVENTS_PER_SECOND);
    const seed = Math.round(positive('seed', values.seed, Date.now() % 2 ** 31));
    if (!values.otlp && (values.key === undefined) !== (values.secret === undefined)) throw new Error('--key and --secret go together');
    const kept = values.key === undefined ? readDemoCredentials(config.EARSHOT_DATA_DIR) : undefined;
    if (values.key === undefined && !kept)
      throw new Error(`no ${demoFile(config.EARSHOT_DATA_DIR)}: start the server here first (npm start), or pass --url, --key and --secret`);
    const target: DemoTarget = {
      url: values.url ?? localOrigin(config),
      apiKey: values.key ?? kept?.apiKey ?? '',
      webhookSecret: values.secret ?? kept?.webhookSecret ?? '',
      ...(kept ? { tenantId: kept.tenantId } : {}),
    };

    if (values.otlp) return streamOtlp(target, calls, seed);

    const traffic = generateDemoTraffic({ seed, calls, now: Date.now() });
    console.log(`Streaming ${calls} calls (${traffic.deliveries.length} deliveries, seed ${seed}) to ${target.url} at up to ${rate} events/s`);
    const live = process.stdout.isTTY;
    const summary = await sendDemoTraffic(target, traffic, {
      eventsPerSecond: rate,
      onProgress: (p) => {
        const line = `  ${p.envelopesSent}/${p.envelopesTotal} envelopes, ${p.requests} requests${p.rateLimited ? `, ${p.rateLimited} rate-limited (waited out)` : ''}`;
        if (live) process.stdout.write(`\r${line}`);
        else if (p.envelopesSent === p.envelopesTotal || p.requests % 10 === 0) console.log(line);
      },
    });
    if (live) process.stdout.write('\n');
    const fates = new Map<string, number>();
    for (const call of traffic.calls) fates.set(call.fate, (fates.get(call.fate) ?? 0) + 1);
    console.log(
      `Done in ${summary.seconds} s: ${summary.envelopes} envelopes in ${summary.requests} requests; ${summary.accepted} accepted, ${summary.duplicates} duplicates answered as such, ${summary.deadLettered} dead-lettered, ${summary.rateLimited} rate-limited answers waited out`,
    );
    console.log(`Calls: ${[...fates].map(([fate, n]) => `${n} ${fate.replace(/_/g, ' ')}`).join(', ')}`);
    console.log(`Outcomes: ${summary.outcomes.recorded} recorded (${summary.outcomes.via})`);
    console.log(`See them: GET ${target.url}/api/v1/calls (Authorization: Bearer <the key>)`);
    return 0;
  },
};

async function streamOtlp(target: DemoTarget, calls: number, seed: number): Promise<number> {
  const exports = generateOtlpExports({ seed, calls, now: Date.now() });
  console.log(`Streaming ${calls} LiveKit and Pipecat sessions as OTLP traces (${exports.length} export requests, seed ${seed}) to ${target.url}/v1/traces`);
  const summary = await sendOtlpExports(target, exports, (sent, total) => {
    if (process.stdout.isTTY) process.stdout.write(`\r  ${sent}/${total} export requests`);
  });
  if (process.stdout.isTTY) process.stdout.write('\n');
  console.log(
    `Done in ${summary.seconds} s: ${summary.spans} spans in ${summary.requests} requests; ${summary.rejected} rejected, ${summary.rateLimited} rate-limited answers waited out`,
  );
  console.log(`See them: GET ${target.url}/api/v1/calls (Authorization: Bearer <the key>)`);
  return 0;
}
