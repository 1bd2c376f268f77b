import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DESERIALIZERS, drainBatches, WAITING_LIMIT, waitingLimit } from './platformatic-stream';

interface Fetched {
  topic: string;
  partition: number;
  key: string;
  value: Buffer;
}

/** A messages stream as the client's is: object mode, flowing, and what a fetch brings pushed whether paused or not. */
class FetchedStream extends Readable {
  constructor() {
    super({ objectMode: true, highWaterMark: 1_024 });
  }

  override _read(): void {}

  close(): Promise<void> {
    this.destroy();
    return Promise.resolve();
  }

  fetch(count: number, valueBytes: number, partition = 0): void {
    for (let i = 0; i < count; i++) this.push({ topic: 'events', partition, key: `call-${i % 7}`, value: Buffer.alloc(valueBytes) });
  }
}

const bytesOf = (batch: readonly Fetched[]) => batch.reduce((sum, m) => sum + m.key.length + m.value.length, 0);
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Drains `stream` with a handler that holds each batch until let go, and the batches as they were handed over. */
function drain(stream: FetchedStream) {
  const batches: Fetched[][] = [];
  const held: (() => void)[] = [];
  const done = drainBatches<Fetched, Fetched>(
    stream,
    async (messages) => {
      batches.push(messages);
      await new Promise<void>((resolve) => held.push(resolve));
    },
    (message) => message,
  );
  const letGo = async () => {
    while (held.length > 0) held.shift()?.();
    await tick();
  };
  /** Closes the stream and lets the batch in hand go, after which the drain ends. */
  const finish = async () => {
    await stream.close();
    await letGo();
    await done;
  };
  return { batches, letGo, finish };
}

describe('waitingLimit', () => {
  const MIB = 1024 * 1024;

  it('holds 5,000 records or 8 MiB in the heap Node gives a 768 MiB container, and twice that from 1 GiB', () => {
    // 396 MiB: Node 20's heap in 768 MiB; 576 with the projector's semi-space flags; 4 GiB, a host's default.
    for (const heap of [384, 396, 576, 1023]) expect(waitingLimit(heap * MIB), `${heap} MiB`).toEqual({ records: 5_000, bytes: 8 * MIB });
    for (const heap of [1024, 4144]) expect(waitingLimit(heap * MIB), `${heap} MiB`).toEqual({ records: 10_000, bytes: 16 * MIB });
  });
});

describe('drainBatches', () => {
  it('pauses the stream once as many small records wait as it may hold, and hands them over no larger', async () => {
    const stream = new FetchedStream();
    const { batches, letGo, finish } = drain(stream);
    stream.fetch(3 * WAITING_LIMIT.records, 100);
    await tick();
    // A batch in hand and as many waiting: the stream paused there, with the rest of the fetch still in it.
    expect(stream.isPaused()).toBe(true);
    expect(stream.readableLength).toBeGreaterThan(0);
    while (stream.readableLength > 0 || batches.flat().length < 3 * WAITING_LIMIT.records) await letGo();
    expect(batches.flat()).toHaveLength(3 * WAITING_LIMIT.records);
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(WAITING_LIMIT.records);
    await finish();
  });

  it('pauses it on bytes when the records are large, long before their count', async () => {
    const stream = new FetchedStream();
    const { batches, letGo, finish } = drain(stream);
    const valueBytes = 256 * 1024;
    const count = Math.ceil((3 * WAITING_LIMIT.bytes) / valueBytes);
    stream.fetch(count, valueBytes);
    await tick();
    expect(stream.isPaused()).toBe(true);
    while (batches.flat().length < count) await letGo();
    // At most one record past the budget: the one that reached it.
    for (const batch of batches) expect(bytesOf(batch)).toBeLessThan(WAITING_LIMIT.bytes + valueBytes + 64);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    await finish();
  });

  it('hands over what waited grouped by partition, each in the order it came', async () => {
    const stream = new FetchedStream();
    const { batches, letGo, finish } = drain(stream);
    stream.push({ topic: 'events', partition: 0, key: 'a', value: Buffer.from('x') });
    await tick();
    for (const [partition, value] of [
      [1, '1'],
      [0, '2'],
      [1, '3'],
    ] as const)
      stream.push({ topic: 'events', partition, key: 'a', value: Buffer.from(value) });
    await tick();
    await letGo();
    await letGo();
    expect(batches.map((batch) => batch.map((m) => `${m.partition}:${m.value.toString()}`))).toEqual([['0:x'], ['1:1', '1:3'], ['0:2']]);
    await finish();
  });

  it("hands over the partitions' batches at once, and takes more only when every one is done", async () => {
    const stream = new FetchedStream();
    const { batches, letGo, finish } = drain(stream);
    stream.fetch(3, 10, 0);
    stream.fetch(2, 10, 1);
    await tick();
    // Both in hand: neither waited for the other to be let go.
    expect(batches.map((batch) => batch.map((m) => m.partition))).toEqual([
      [0, 0, 0],
      [1, 1],
    ]);
    stream.fetch(1, 10, 1);
    await tick();
    expect(batches).toHaveLength(2);
    await letGo();
    expect(batches).toHaveLength(3);
    await finish();
  });

  it('fails only once the batches beside the failed one are done', async () => {
    const stream = new FetchedStream();
    let release: () => void = () => undefined;
    let otherDone = false;
    const done = drainBatches<Fetched, Fetched>(
      stream,
      async ([first]) => {
        if (first?.partition === 0) throw new Error('refused');
        await new Promise<void>((resolve) => (release = resolve));
        otherDone = true;
      },
      (message) => message,
    );
    const outcome = done.then(
      () => 'resolved',
      (error: Error) => `${error.message}; other done: ${otherDone}`,
    );
    stream.fetch(1, 10, 0);
    stream.fetch(1, 10, 1);
    await tick();
    release();
    expect(await outcome).toBe('refused; other done: true');
  });

  it('fails with what failed the stream once the batch in hand is done, and ends quietly when the stream is closed', async () => {
    const stream = new FetchedStream();
    let release: () => void = () => undefined;
    const handled: Fetched[] = [];
    const done = drainBatches<Fetched, Fetched>(
      stream,
      async (batch) => {
        await new Promise<void>((resolve) => (release = resolve));
        handled.push(...batch);
      },
      (message) => message,
    );
    const outcome = done.then(
      () => 'resolved',
      (error: Error) => `${error.message}; handled: ${handled.length}`,
    );
    stream.fetch(1, 10);
    await tick();
    stream.destroy(new Error('fetch failed: broker away'));
    await tick();
    release();
    expect(await outcome).toBe('fetch failed: broker away; handled: 1');

    const closed = new FetchedStream();
    const quiet = drain(closed);
    closed.fetch(1, 10);
    await tick();
    await quiet.finish();
    expect(quiet.batches.flat()).toHaveLength(1);
  });
});

describe('DESERIALIZERS', () => {
  it("reads a record's key and headers as text, so a waiting message holds no Buffer view but its value", () => {
    const { key, headerKey, headerValue, value } = DESERIALIZERS;
    expect(key?.(Buffer.from('call_1'))).toBe('call_1');
    expect(headerKey?.(Buffer.from('sealed-with'))).toBe('sealed-with');
    expect(headerValue?.(Buffer.from('ünïcode ✓'))).toBe('ünïcode ✓');
    expect(headerValue?.(undefined)).toBeUndefined();
    // The value stays the bytes the client read: the codec decodes them where they lie.
    expect(value).toBeUndefined();
  });
});
