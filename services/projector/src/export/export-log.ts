import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import avro from 'avsc';
import { stillSealed, UnreadableSealedValue, type KeyLookup } from '@earshot/events';
import type { EventLog, LogPosition, LogRecord, TopicName } from '@earshot/log';
import { readRecord } from '@earshot/topics';
import { avroRowOf, exportSchemaOf } from './avro-rows';
import { batchKeys, exportedBy, notErased, sealingMetadata, type ExportAuthority } from './export-sealing';

type EncoderOptions = NonNullable<ConstructorParameters<typeof avro.streams.BlockEncoder>[1]>;

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
  /** Exports one tenant's records with its sealed fields opened; without it, every tenant's with sealed fields left sealed. */
  authority?: ExportAuthority;
}

/** A record as an NDJSON line's object; an event or dead letter with fields still sealed (their key not held, or erased) names them under `_sealed`. */
function decoded(record: LogRecord, keys: KeyLookup): object {
  const read = readRecord(record, keys);
  if (read.topic === 'earshot.dlq') {
    const letter = Object.assign({}, read.payload, { body: Buffer.from(read.payload.body).toString('base64') });
    return read.payload.sealed_with === null ? letter : Object.assign(letter, { _sealed: ['body'] });
  }
  if (read.topic !== 'earshot.events') return read.payload;
  const sealed = stillSealed(read.payload.type, read.payload);
  return sealed.length === 0 ? read.payload : Object.assign({}, read.payload, { _sealed: sealed });
}

const NO_KEYS: KeyLookup = () => undefined;

/** What an export wrote: its records, and where those are whose sealed fields did not open (written sealed). */
export interface Exported {
  records: number;
  unreadable: LogPosition[];
}

/** The sealed value that did not open behind a failure, if that is what failed: the codec wraps it in its own error. */
const unreadableIn = (error: unknown): UnreadableSealedValue | undefined =>
  error instanceof UnreadableSealedValue ? error : error instanceof Error && error.cause !== undefined ? unreadableIn(error.cause) : undefined;

/**
 * A record as written with the keys given; one whose sealed value does not
 * open with the key it names (its bytes altered) is written as the log holds
 * it, sealed, and its position kept, rather than ending the export there.
 */
function openedOrSealed<T>(record: LogRecord, keys: KeyLookup, write: (keys: KeyLookup, why?: string) => T, unreadable: LogPosition[]): T {
  try {
    return write(keys);
  } catch (error) {
    const found = unreadableIn(error);
    if (found === undefined) throw error;
    unreadable.push({ topic: record.topic, partition: record.partition, offset: record.offset });
    return write(NO_KEYS, found.message);
  }
}

/**
 * Writes a topic's records from one time to another into a file a data team
 * can load elsewhere: newline-delimited JSON (each record decoded, with its
 * log position under `_log`), or an Avro object container file (events in the
 * envelope schema; dead letters and deliveries in their own schema). Sealed
 * fields open only for the tenant whose authority the export has.
 */
export async function exportLog({ log, topic, from, to, format, out, onProgress = () => undefined, authority }: ExportOptions): Promise<Exported> {
  let records = 0;
  const unreadable: LogPosition[] = [];
  const exported = exportedBy(authority);
  const inRange = (record: LogRecord) => (to === undefined || record.timestamp < to.getTime()) && exported(record);

  if (format === 'ndjson') {
    const file = createWriteStream(out);
    await log.replay({
      topics: [topic],
      from,
      onBatch: async (batch) => {
        const chosen = await notErased(authority, batch.filter(inRange));
        const keys = await batchKeys(authority, chosen);
        const lines = chosen.map(
          (r) =>
            // Assigned, not spread into a literal that then gains `_log`: that is V8's slow path on Node 20, once per exported record.
            `${JSON.stringify(
              Object.assign(
                {},
                openedOrSealed(r, keys, (k, why) => (why === undefined ? decoded(r, k) : Object.assign(decoded(r, k), { _unreadable: why })), unreadable),
                { _log: { topic: r.topic, partition: r.partition, offset: r.offset, appended_at: new Date(r.timestamp).toISOString() } },
              ),
            )}\n`,
        );
        records += lines.length;
        if (!file.write(lines.join(''))) await once(file, 'drain');
        onProgress(records);
      },
    });
    file.end();
    await once(file, 'finish');
    return { records, unreadable };
  }

  // The schema as its file declares it, not avsc's Type, so the file's header keeps the logical types.
  // avsc writes `metadata` into the file's header; its type declarations leave the option out.
  const header: EncoderOptions & { metadata: Record<string, Buffer> } = { metadata: sealingMetadata(topic, authority) };
  const encoder = new avro.streams.BlockEncoder(exportSchemaOf(topic), header);
  const file = createWriteStream(out);
  encoder.pipe(file);
  await log.replay({
    topics: [topic],
    from,
    onBatch: async (batch) => {
      const chosen = await notErased(authority, batch.filter(inRange));
      const keys = await batchKeys(authority, chosen);
      for (const record of chosen) {
        if (!encoder.write(openedOrSealed(record, keys, (k) => avroRowOf(topic, record, k), unreadable))) await once(encoder, 'drain');
        records += 1;
      }
      onProgress(records);
    },
  });
  encoder.end();
  await once(file, 'finish');
  return { records, unreadable };
}
