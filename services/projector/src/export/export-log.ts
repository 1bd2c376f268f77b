import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import avro from 'avsc';
import type { EventLog, LogRecord, TopicName } from '@earshot/log';
import { readRecord } from '@earshot/topics';
import { avroRowOf, exportSchemaOf } from './avro-rows';

export const EXPORT_FORMATS = ['ndjson', 'avro'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportOptions {
  log: EventLog;
  topic: TopicName;
  from: 'earliest' | Date;
  /** Records the log stored before this time; all of them when absent. */
  to?: Date;
  format: ExportFormat;
  out: string;
  onProgress?: (records: number) => void;
}

function decoded(record: LogRecord): unknown {
  const read = readRecord(record);
  return read.topic === 'earshot.dlq' ? { ...read.payload, body: Buffer.from(read.payload.body).toString('base64') } : read.payload;
}

/**
 * Writes a topic's records from one time to another into a file a data team
 * can load elsewhere: newline-delimited JSON (each record decoded, with its
 * log position under `_log`), or an Avro object container file (events in the
 * envelope schema; dead letters and deliveries in their own schema).
 */
export async function exportLog({ log, topic, from, to, format, out, onProgress = () => undefined }: ExportOptions): Promise<{ records: number }> {
  let records = 0;
  const inRange = (record: LogRecord) => to === undefined || record.timestamp < to.getTime();

  if (format === 'ndjson') {
    const file = createWriteStream(out);
    await log.replay({
      topics: [topic],
      from,
      onBatch: async (batch) => {
        const lines = batch
          .filter(inRange)
          .map(
            (r) =>
              `${JSON.stringify({ ...(decoded(r) as object), _log: { topic: r.topic, partition: r.partition, offset: r.offset, appended_at: new Date(r.timestamp).toISOString() } })}\n`,
          );
        records += lines.length;
        if (!file.write(lines.join(''))) await once(file, 'drain');
        onProgress(records);
      },
    });
    file.end();
    await once(file, 'finish');
    return { records };
  }

  // The schema as its file declares it, not avsc's Type, so the file's header keeps the logical types.
  const encoder = new avro.streams.BlockEncoder(exportSchemaOf(topic));
  const file = createWriteStream(out);
  encoder.pipe(file);
  await log.replay({
    topics: [topic],
    from,
    onBatch: async (batch) => {
      for (const record of batch.filter(inRange)) {
        if (!encoder.write(avroRowOf(topic, record))) await once(encoder, 'drain');
        records += 1;
      }
      onProgress(records);
    },
  });
  encoder.end();
  await once(file, 'finish');
  return { records };
}
