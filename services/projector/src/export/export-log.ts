import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import avro from 'avsc';
import type { StoredEvent } from '@earshot/contracts';
import { decodeDeadLetter, decodeDelivery, decodeEvent, fingerprintOf, schemaRegistry, type SchemaEntry } from '@earshot/events';
import { TOPICS, type EventLog, type LogRecord, type TopicName } from '@earshot/log';

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

/** Single-object encoding: 2 marker bytes and an 8-byte fingerprint before the Avro body. */
const SINGLE_OBJECT_HEADER = 10;

function decoded(record: LogRecord): unknown {
  if (record.topic === TOPICS.events) return decodeEvent(record.value);
  if (record.topic === TOPICS.deadLetters) {
    const deadLetter = decodeDeadLetter(record.value);
    return { ...deadLetter, body: Buffer.from(deadLetter.body).toString('base64') };
  }
  return decodeDelivery(record.value);
}

/** An event in the shape of schemas/envelope: the data as JSON text, so one schema holds every event type. */
function envelopeOf(event: StoredEvent): Record<string, unknown> {
  const call = event.call;
  return {
    type: event.type,
    version: event.version,
    idempotency_key: event.idempotency_key,
    occurred_at: Date.parse(event.occurred_at),
    received_at: Date.parse(event.received_at),
    tenant: event.tenant,
    provider: event.provider,
    call: call
      ? {
          provider_call_id: call.provider_call_id,
          agent_id: call.agent_id,
          direction: call.direction,
          from_number: call.from_number,
          to_number: call.to_number,
          agent_version: call.agent_version,
          workflow_id: call.workflow_id,
          customer_id: call.customer_id,
          metadata: call.metadata,
        }
      : null,
    data: JSON.stringify(event.data),
    extensions: null,
  };
}

function writerOf(record: LogRecord): SchemaEntry {
  const fingerprint = fingerprintOf(record.value);
  const entry = schemaRegistry().entries.find((e) => e.fingerprintHex === fingerprint);
  if (!entry) throw new Error(`offset ${record.offset}: no schema under schemas/ has fingerprint ${fingerprint}`);
  return entry;
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

  const schema = schemaRegistry().current(topic === TOPICS.events ? 'envelope' : topic === TOPICS.deadLetters ? 'dead-letter' : 'delivery');
  if (!schema) throw new Error(`no schema for topic ${topic}`);
  const encoder = new avro.streams.BlockEncoder(schema.type);
  const file = createWriteStream(out);
  encoder.pipe(file);
  await log.replay({
    topics: [topic],
    from,
    onBatch: async (batch) => {
      for (const record of batch.filter(inRange)) {
        const value: unknown =
          topic === TOPICS.events ? envelopeOf(decodeEvent(record.value)) : writerOf(record).type.fromBuffer(record.value.subarray(SINGLE_OBJECT_HEADER));
        if (!encoder.write(value)) await once(encoder, 'drain');
        records += 1;
      }
      onProgress(records);
    },
  });
  encoder.end();
  await once(file, 'finish');
  return { records };
}
