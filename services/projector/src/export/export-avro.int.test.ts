import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, StoredEventSchema, type StoredEvent } from '@earshot/contracts';
import { sampleEvent } from '@earshot/events/samples';
import { TOPICS, type EventLog } from '@earshot/log';
import { appendEvents, callScript, contractTools, kafkaLog, run } from '@earshot/testing';
import { exportLog } from './export-log';

/**
 * fastavro (PyPI), a reader that shares no code with avsc: prints each row as
 * JSON with its times as ISO strings, after checking fastavro gave them as
 * UTC datetimes, and the logical types the file's writer schema declares.
 */
const FASTAVRO_SCRIPT = `
import datetime, json, sys
import fastavro

def iso(value):
    assert isinstance(value, datetime.datetime), f"time read as {type(value).__name__}: {value!r}"
    assert value.utcoffset() == datetime.timedelta(0), f"time not in UTC: {value!r}"
    return value.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")

with open(sys.argv[1], "rb") as file:
    reader = fastavro.reader(file)
    fields = {f["name"]: f["type"] for f in reader.writer_schema["fields"]}
    rows = []
    for row in reader:
        row["occurred_at"] = iso(row["occurred_at"])
        row["received_at"] = iso(row["received_at"])
        rows.append(row)
print(json.dumps({"occurred_at": fields["occurred_at"], "extensions": fields["extensions"], "rows": rows}))
`;

interface FastavroRow {
  type: string;
  occurred_at: string;
  received_at: string;
  call: Record<string, unknown> | null;
  data: string;
  extensions: string | null;
  [field: string]: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `known` with the sender's unknown fields put back where they were sent (top level, call, data, nested). */
function merged(known: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out = { ...known };
  for (const [key, value] of Object.entries(extra)) out[key] = isObject(value) && isObject(out[key]) ? merged(out[key], value) : value;
  return out;
}

/** The event a row of the envelope file stands for: data parsed from its JSON text, extensions merged back. */
function eventOfRow({ extensions, ...row }: FastavroRow): Record<string, unknown> {
  const known = { ...row, data: JSON.parse(row.data) as unknown };
  return extensions === null ? known : merged(known, JSON.parse(extensions) as Record<string, unknown>);
}

/** What providers and SDKs send beside the contract: a trace id, a nested SDK object, a call region, data the schema does not know. */
function withExtensions(event: StoredEvent, n: number): StoredEvent {
  return StoredEventSchema.parse({
    ...event,
    trace_id: `trace-${n}`,
    sdk: { name: 'earshot-python', version: '0.4.0' },
    call: event.call === null ? null : { ...event.call, region: 'us-east-1' },
    data: { ...event.data, vad_ms: 30 + n, raw: { model: 'nova-3', confidences: [0.91, 0.87] } },
  });
}

describe('Avro export as a non-JS reader sees it', () => {
  let log: EventLog;
  let dir: string;
  let events: StoredEvent[];
  let python: string;

  beforeAll(async () => {
    python = contractTools();
    log = await kafkaLog('export-avro');
    dir = await mkdtemp(join(tmpdir(), 'earshot-export-avro-'));
    const tenant = randomUUID();
    const call = callScript({ tenant, providerCallId: 'avro-call', turns: 5, outcome: true });
    const everyType = EVENT_TYPES.map((type) => sampleEvent(type, { tenant, idempotency_key: `every:${type}` }));
    const acknowledged = sampleEvent('incident.created', {
      tenant,
      version: '2026-11-22',
      idempotency_key: 'incident:acknowledged',
      data: { status: 'acknowledged', started_at: '2026-01-08T09:00:00.000Z' },
    });
    events = [...call, ...everyType, acknowledged].map((event, n) => (n % 3 === 0 ? event : withExtensions(event, n)));
    await appendEvents(log, events);
  }, 600_000);
  afterAll(async () => {
    await log?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gives fastavro every event of the topic, field for field, with extensions and times as datetimes', async () => {
    const out = join(dir, 'events.avro');
    expect(await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'avro', out })).toEqual({ records: events.length, unreadable: [] });

    const read = await run(join(python, 'python'), ['-c', FASTAVRO_SCRIPT, out]);
    expect(read.code, read.output).toBe(0);
    const file = JSON.parse(read.output) as { occurred_at: unknown; extensions: unknown; rows: FastavroRow[] };
    expect(file.occurred_at).toEqual({ type: 'long', logicalType: 'timestamp-millis' });
    expect(file.extensions).toEqual(['null', { type: 'string', logicalType: 'json' }]);

    expect(new Set(file.rows.map((row) => row.type))).toEqual(new Set(EVENT_TYPES));
    expect(file.rows.filter((row) => row.extensions !== null)).toHaveLength(events.filter((_, n) => n % 3 !== 0).length);
    // The data text holds what the type's schema knows; the rest is in extensions, not twice.
    expect(file.rows.filter((row) => 'vad_ms' in (JSON.parse(row.data) as object))).toEqual([]);
    const byKey = new Map(file.rows.map((row) => [row.idempotency_key, eventOfRow(row)]));
    expect(byKey.size).toBe(events.length);
    for (const event of events) expect(byKey.get(event.idempotency_key)).toEqual(event);
  });

  it('keeps the newline-delimited JSON export equal to the topic', async () => {
    const out = join(dir, 'events.ndjson');
    await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'ndjson', out });
    const lines = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const byKey = new Map(lines.map(({ _log, ...event }) => [event.idempotency_key, event]));
    expect(byKey.size).toBe(events.length);
    for (const event of events) expect(byKey.get(event.idempotency_key)).toEqual(event);
  });
});
