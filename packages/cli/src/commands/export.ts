import { parseArgs } from 'node:util';
import { loadConfig } from '@earshot/config';
import { ALL_TOPICS, type TopicName } from '@earshot/log';
import { EXPORT_FORMATS, exportLog, type ExportFormat } from '@earshot/projector';
import { resolveTargets, startModules } from '@earshot/server';
import type { CommandRunner } from '../command-runner';
import { composeTargets } from '../targets';
import { parseFrom, parseTime } from './log-range';

const isTopic = (value: string): value is TopicName => (ALL_TOPICS as readonly string[]).includes(value);
const isFormat = (value: string): value is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(value);

/**
 * `earshot export --topic earshot.events --from … --to … --format ndjson|avro --out FILE`:
 * a topic's records between two times, in a file a data team loads elsewhere.
 */
export const exportCommand: CommandRunner = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        topic: { type: 'string', default: 'earshot.events' },
        from: { type: 'string' },
        to: { type: 'string' },
        format: { type: 'string', default: 'ndjson' },
        out: { type: 'string' },
      },
      strict: true,
    });
    const topic = values.topic ?? '';
    const format = values.format ?? '';
    if (!isTopic(topic)) throw new Error(`--topic must be one of ${ALL_TOPICS.join(', ')}`);
    if (!isFormat(format)) throw new Error(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
    if (!values.out) throw new Error('--out FILE is required');
    const from = parseFrom(values.from);
    const to = values.to === undefined ? undefined : parseTime(values.to, '--to');
    const { runtime, modules } = composeTargets(loadConfig());
    const running = await startModules(resolveTargets(['log'], modules));
    try {
      const { records } = await exportLog({
        log: runtime.log(),
        topic,
        from,
        to,
        format,
        out: values.out,
        onProgress: (n) => process.stderr.write(`\r\x1b[2K[export] ${n.toLocaleString('en-US')} records`),
      });
      process.stderr.write('\n');
      console.log(`wrote ${records.toLocaleString('en-US')} records of ${topic} to ${values.out} (${format})`);
      return 0;
    } finally {
      await running.stop();
    }
  },
};
