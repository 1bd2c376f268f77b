import { getHeapStatistics } from 'node:v8';
import { stringDeserializer, type Deserializers, type Message } from '@platformatic/kafka';
import { byPartition } from '../partition-groups';

/** What the patched client's record answers of its headers: an object, read from the fetched batch when asked. */
export interface HeaderReader {
  headerRecord(): Record<string, string>;
}

/**
 * A record's key and headers as text, its value as the bytes it holds. Read with DESERIALIZERS, the patched client's
 * message also carries its record (PlainMessage), and reads its headers only when asked.
 */
export type KafkaMessage = Message<string, Buffer, string, string> & { record?: HeaderReader };

/**
 * The key and headers are read as text. As Buffers they were a dozen views a message, ~1.2 KB of heap that lived as
 * long as the message waited, and were made into text later all the same. The client as patched reads them as text
 * straight from the fetched batch when they are given its own stringDeserializer, making no views: the key as the
 * record is read, the headers when first asked for.
 */
export const DESERIALIZERS: Partial<Deserializers<string, Buffer, string, string>> = {
  key: stringDeserializer,
  headerKey: stringDeserializer,
  headerValue: stringDeserializer,
};

/** What drainBatches reads of what waits: where it belongs, and its bytes. */
type Drained = Pick<KafkaMessage, 'topic' | 'partition' | 'key' | 'value'>;

/** What drainBatches uses of a messages stream. */
export interface DrainedStream<M> {
  on(event: 'data', listener: (message: M) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  pause(): unknown;
  resume(): unknown;
  isPaused(): boolean;
  close(): Promise<void>;
  readonly destroyed: boolean;
  readonly closed: boolean;
}

const GIB = 1024 ** 3;

/**
 * What a stream may hold waiting before it is paused; the batch in hand is as large again. A waiting record costs
 * heap besides its bytes (its headers' text, its offset), so the count bounds small events
 * and the bytes large ones. At 20,000 a projector's three consumers catching up held ~150,000 messages and could
 * not do it within 384 MiB of heap; at 5,000 batches are ~3,000 events. A heap of 1 GiB or more (a host's
 * default, a larger container) holds twice that, and a batch's statements are spread over twice the events.
 */
export function waitingLimit(heapLimitBytes: number): { records: number; bytes: number } {
  const times = heapLimitBytes >= GIB ? 2 : 1;
  return { records: 5_000 * times, bytes: 8 * 1024 * 1024 * times };
}

/** This process's limit, from the heap V8 was given (`--max-old-space-size`, or what Node chose for its memory). */
export const WAITING_LIMIT = waitingLimit(getHeapStatistics().heap_size_limit);

const sizeOf = (kept: Drained) => (kept.key?.length ?? 0) + (kept.value?.length ?? 0);

/**
 * Reads a messages stream as batches of one partition each, in order: every
 * record that arrived while the last batches were handled goes out at once,
 * grouped by partition, and the partitions' batches are handled at once. The
 * stream flows (its own fetch loop keeps going; in paused mode, read() after
 * an empty fetch left it idle for good) and is paused while WAITING_LIMIT's
 * records or bytes wait. Resolves when the stream closes; rejects (and closes
 * it) when the handler fails, and with the stream's error when the stream
 * failed (a fetch failed past the client's retries, which ends the client's
 * stream for good), so a reader that ended short knows it. What waits is what
 * `keep` makes of each message as it arrives (nothing: the message is
 * dropped), so a message it lets go dies young rather than being copied by
 * the collector for as long as it waits.
 */
export async function drainBatches<M, K extends Drained>(
  stream: DrainedStream<M>,
  handle: (batch: K[]) => Promise<void>,
  keep: (message: M) => K | undefined,
): Promise<void> {
  let waiting: K[] = [];
  let waitingBytes = 0;
  let wake: (() => void) | undefined;
  const ended = new Promise<void>((resolve) => {
    stream.once('close', resolve);
    stream.once('end', resolve);
  });
  // The loop sees a failed stream as a closed one, and throws what failed it once it has stopped.
  let failure: Error | undefined;
  stream.on('error', (error) => (failure ??= error));
  stream.on('data', (message) => {
    const kept = keep(message);
    if (kept === undefined) return;
    waiting.push(kept);
    waitingBytes += sizeOf(kept);
    if (waiting.length >= WAITING_LIMIT.records || waitingBytes >= WAITING_LIMIT.bytes) stream.pause();
    wake?.();
  });
  try {
    while (!stream.destroyed && !stream.closed) {
      if (waiting.length === 0) {
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), ended]);
        wake = undefined;
        continue;
      }
      const taken = waiting;
      waiting = [];
      waitingBytes = 0;
      if (stream.isPaused()) stream.resume();
      // Side by side: each partition's batch waits mostly on its own transaction, while another's is decoded. A
      // partition's next batch is taken only when all of these are done, and the loop ends only with them.
      const handled = await Promise.allSettled(byPartition(taken).map((batch) => handle(batch)));
      const failed = handled.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    }
    if (failure) throw failure;
  } catch (error) {
    if (!stream.closed) await stream.close();
    throw error;
  }
}
