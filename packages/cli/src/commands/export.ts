import { loadConfig } from '@earshot/config';
import { ALL_TOPICS, type TopicName } from '@earshot/log';
import { EXPORT_FORMATS, exportLog, type ExportFormat } from '@earshot/projector';
import { resolveTargets, startModules } from '@earshot/server';
import { UsageError } from '../cli/exit-codes';
import { say } from '../cli/output';
import { progressBar } from '../cli/progress';
import { composeTargets } from '../targets';
import { parseFrom, parseTime } from './log-range';

const isTopic = (value: string): value is TopicName => (ALL_TOPICS as readonly string[]).includes(value);
const isFormat = (value: string): value is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(value);

/**
 * `earshot export --topic earshot.events --from … --to … --format ndjson|avro --out FILE`:
 * a topic's records between two times, in a file a data team loads elsewhere.
 */
export async function exportTopic(values: { topic: string; from?: string; to?: string; format: string; out: string }): Promise<void> {
  const { topic, format } = values;
  if (!isTopic(topic)) throw new UsageError(`--topic must be one of ${ALL_TOPICS.join(', ')}`);
  if (!isFormat(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const from = parseFrom(values.from);
  const to = values.to === undefined ? undefined : parseTime(values.to, '--to');
  const { runtime, modules } = composeTargets(loadConfig());
  const running = await startModules(resolveTargets(['log'], modules));
  // The log does not say up front how many records lie in the range: the bar shows the count and the rate.
  const bar = progressBar('[export]', 'records', 0);
  try {
    const { records } = await exportLog({
      log: runtime.log(),
      topic,
      from,
      to,
      format,
      out: values.out,
      onProgress: (n) => bar.update(n, n),
    });
    bar.stop();
    say(`wrote ${records.toLocaleString('en-US')} records of ${topic} to ${values.out} (${format})`);
  } finally {
    bar.stop();
    await running.stop();
  }
}
