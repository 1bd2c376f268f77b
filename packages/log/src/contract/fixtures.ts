import type { ConsumeOptions, EventLog, LogPosition, LogRecord } from '../event-log';
import { TOPICS } from '../topics';

/** Opaque Avro-looking bytes: the single-object marker, then a sequence number the tests read back. */
export function value(seq: number): Buffer {
  const body = Buffer.alloc(10 + 8);
  body.writeUInt8(0xc3, 0);
  body.writeUInt8(0x01, 1);
  body.writeBigUInt64LE(0x1122334455667788n, 2);
  body.writeUInt32LE(seq, 10);
  return body;
}

export function numberOf(record: LogRecord): number {
  return record.value.readUInt32LE(10);
}

/** Appends `count` records numbered from `from`, spread over `keys` keys, in chunks like a busy gateway. */
export async function appendNumbered(log: EventLog, count: number, keys: number, from = 0): Promise<LogPosition[]> {
  const positions: LogPosition[] = [];
  const chunk = 500;
  for (let start = 0; start < count; start += chunk) {
    const records = Array.from({ length: Math.min(chunk, count - start) }, (_, i) => {
      const seq = from + start + i;
      return {
        topic: TOPICS.events,
        key: `tenant-1:call-${seq % keys}`,
        value: value(seq),
        headers: { 'earshot-type': 'call.started', 'earshot-seq': String(seq) },
      };
    });
    positions.push(...(await log.append(records)));
  }
  return positions;
}

export async function eventually(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function collect(log: EventLog, count: number): Promise<LogRecord[]> {
  const seen: LogRecord[] = [];
  await log.replay({ topics: [TOPICS.events], from: 'earliest', onBatch: async (b) => void seen.push(...b) });
  if (seen.length !== count) throw new Error(`expected ${count} records, replay gave ${seen.length}`);
  return seen;
}

/** Consumes the events topic as the group `projector` until `count` records have come, then stops: the records as they came. */
export async function consumeUntil(log: EventLog, count: number, options: Pick<ConsumeOptions, 'start'> = {}, timeoutMs = 60_000): Promise<LogRecord[]> {
  const seen: LogRecord[] = [];
  const running = await log.consume({ group: 'projector', topics: [TOPICS.events], onBatch: async (batch) => void seen.push(...batch), ...options });
  await eventually(() => seen.length >= count, timeoutMs);
  await running.stop();
  return seen;
}
