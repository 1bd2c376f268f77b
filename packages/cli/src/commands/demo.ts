import { loadConfig } from '@earshot/config';
import { UsageError } from '../cli/exit-codes';
import { progressBar } from '../cli/progress';
import { say } from '../cli/output';
import { demoFile, readDemoCredentials } from '../demo/demo-credentials';
import { DEFAULT_EVENTS_PER_SECOND, sendDemoTraffic, type DemoTarget } from '../demo/demo-sender';
import { generateDemoTraffic } from '../demo/demo-traffic';
import { sendOtlpExports } from '../demo/otlp-sender';
import { generateOtlpExports } from '../demo/otlp-sessions';
import { localOrigin } from '../local-instance';

export interface DemoOptions {
  calls: number;
  rate?: number;
  seed?: number;
  url?: string;
  key?: string;
  secret?: string;
  otlp?: boolean;
}

/**
 * `earshot demo [--calls N] [--rate R] [--seed S] [--url U --key K --secret S]`:
 * streams realistic signed calls into a running instance through its ingest
 * endpoint. Without --secret it uses the demonstration credentials of
 * the instance whose data directory is here (demo.json). With --otlp it
 * streams LiveKit- and Pipecat-shaped sessions as OTLP traces instead, to
 * POST /v1/traces (the key alone: no signature).
 */
export async function demo(values: DemoOptions): Promise<void> {
  const config = loadConfig();
  const { calls } = values;
  const rate = values.rate ?? DEFAULT_EVENTS_PER_SECOND;
  const seed = values.seed ?? Date.now() % 2 ** 31;
  // A webhook secret means the caller brings its own tenant; else the demonstration tenant of this directory.
  if (!values.otlp && values.secret !== undefined && values.key === undefined) throw new UsageError('--secret goes with --key (or EARSHOT_API_KEY)');
  const kept = values.secret === undefined ? readDemoCredentials(config.EARSHOT_DATA_DIR) : undefined;
  if (values.secret === undefined && !kept)
    throw new Error(`no ${demoFile(config.EARSHOT_DATA_DIR)}: start the server here first (npm start), or pass --url, --key and --secret`);
  const target: DemoTarget = {
    url: values.url ?? localOrigin(config),
    apiKey: kept?.apiKey ?? values.key ?? '',
    webhookSecret: values.secret ?? kept?.webhookSecret ?? '',
    ...(kept ? { tenantId: kept.tenantId } : {}),
  };

  if (values.otlp) return streamOtlp(target, calls, seed);

  const traffic = generateDemoTraffic({ seed, calls, now: Date.now() });
  say(`Streaming ${calls} calls (${traffic.deliveries.length} deliveries, seed ${seed}) to ${target.url} at up to ${rate} events/s`);
  const bar = progressBar('[demo]', 'envelopes', traffic.deliveries.length + traffic.outcomes.length);
  const summary = await sendDemoTraffic(target, traffic, {
    eventsPerSecond: rate,
    onProgress: (p) => bar.update(p.envelopesSent, p.envelopesTotal, p.rateLimited ? `${p.rateLimited} rate-limited, waited out` : ''),
  }).finally(() => bar.stop());
  const fates = new Map<string, number>();
  for (const call of traffic.calls) fates.set(call.fate, (fates.get(call.fate) ?? 0) + 1);
  say(
    `Done in ${summary.seconds} s: ${summary.envelopes} envelopes in ${summary.requests} requests; ${summary.accepted} accepted, ${summary.duplicates} duplicates answered as such, ${summary.deadLettered} dead-lettered, ${summary.rateLimited} rate-limited answers waited out`,
  );
  say(`Calls: ${[...fates].map(([fate, n]) => `${n} ${fate.replace(/_/g, ' ')}`).join(', ')}`);
  say(`Outcomes: ${summary.outcomes.recorded} recorded (${summary.outcomes.via})`);
  say('See them: earshot calls list (or earshot tail while more arrive)');
}

async function streamOtlp(target: DemoTarget, calls: number, seed: number): Promise<void> {
  const exports = generateOtlpExports({ seed, calls, now: Date.now() });
  say(`Streaming ${calls} LiveKit and Pipecat sessions as OTLP traces (${exports.length} export requests, seed ${seed}) to ${target.url}/v1/traces`);
  const bar = progressBar('[demo]', 'export requests', exports.length);
  const summary = await sendOtlpExports(target, exports, (sent, total) => bar.update(sent, total, '')).finally(() => bar.stop());
  say(
    `Done in ${summary.seconds} s: ${summary.spans} spans in ${summary.requests} requests; ${summary.rejected} rejected, ${summary.rateLimited} rate-limited answers waited out`,
  );
  say('See them: earshot calls list');
}
