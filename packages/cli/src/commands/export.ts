import { DataKeys, loadMasterKey, lookupApiKey, SecretBox } from '@earshot/auth';
import { loadConfig } from '@earshot/config';
import { ALL_TOPICS, type TopicName } from '@earshot/log';
import { EXPORT_FORMATS, exportLog, type ExportFormat } from '@earshot/projector';
import { resolveTargets, startModules } from '@earshot/server';
import { UsageError } from '../cli/exit-codes';
import { say, warn } from '../cli/output';
import { progressBar } from '../cli/progress';
import { composeTargets } from '../targets';
import { parseFrom, parseTime } from './log-range';

const isTopic = (value: string): value is TopicName => (ALL_TOPICS as readonly string[]).includes(value);
const isFormat = (value: string): value is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(value);

/**
 * `earshot export --topic earshot.events --from … --to … --format ndjson|avro --out FILE [--key API_KEY]`:
 * a topic's records between two times, in a file a data team loads elsewhere.
 * Sealed fields stay sealed unless `--key` gives a tenant's authority (one of
 * its API keys with `exports:read`): then only that tenant's records are
 * written, opened with its own data keys, and none of its erased calls'
 * events appended in the clear.
 */
export async function exportTopic(values: { topic: string; from?: string; to?: string; format: string; out: string; key?: string }): Promise<void> {
  const { topic, format } = values;
  if (!isTopic(topic)) throw new UsageError(`--topic must be one of ${ALL_TOPICS.join(', ')}`);
  if (!isFormat(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const from = parseFrom(values.from);
  const to = values.to === undefined ? undefined : parseTime(values.to, '--to');
  const config = loadConfig();
  const { runtime, modules } = composeTargets(config);
  const running = await startModules(resolveTargets(values.key === undefined ? ['log'] : ['log', 'database'], modules));
  // The log does not say up front how many records lie in the range: the bar shows the count and the rate.
  const bar = progressBar('[export]', 'records', 0);
  try {
    // The export serves no HTTP, so it checks the key and opens data keys with the master key itself, as the replay does.
    const master = new SecretBox(loadMasterKey(config));
    const tenantId = values.key === undefined ? undefined : await tenantOfKey(runtime.database(), master, values.key);
    const dataKeys = tenantId === undefined ? undefined : new DataKeys(runtime.database(), master);
    const { records, unreadable } = await exportLog({
      log: runtime.log(),
      topic,
      from,
      to,
      format,
      out: values.out,
      onProgress: (n) => bar.update(n, n),
      ...(tenantId !== undefined && dataKeys
        ? { authority: { tenantId, keys: (ids: readonly string[]) => dataKeys.lookup(ids, tenantId), erasedCalls: (calls) => dataKeys.erasedCalls(calls) } }
        : {}),
    });
    bar.stop();
    const whose = tenantId === undefined ? 'sealed fields left sealed' : `tenant ${tenantId}'s, sealed fields opened`;
    say(`wrote ${records.toLocaleString('en-US')} records of ${topic} to ${values.out} (${format}; ${whose})`);
    const [first] = unreadable;
    if (first !== undefined)
      warn(
        `[export] ${unreadable.length.toLocaleString('en-US')} of them written sealed: a sealed value did not open with the key it names (its bytes altered), the first at partition ${first.partition} offset ${first.offset}`,
      );
  } finally {
    bar.stop();
    await running.stop();
  }
}

/** The tenant whose authority a presented API key carries for an export: a working key with the `exports:read` scope. */
async function tenantOfKey(db: Parameters<typeof lookupApiKey>[0], master: SecretBox, presented: string): Promise<string> {
  const found = await lookupApiKey(db, master, presented, new Date());
  if (!found.ok) throw new UsageError(`--key is refused (${found.reason})`);
  if (!found.key.scopes.includes('exports:read')) throw new UsageError('--key lacks the exports:read scope an export needs');
  return found.key.tenant.id;
}
