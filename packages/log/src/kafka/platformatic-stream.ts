import type { Message, MessagesStream } from '@platformatic/kafka';

export type KafkaMessage = Message<Buffer, Buffer, Buffer, Buffer>;

/** Records held at most before the stream is paused: a batch as large as kafkajs's 4 MB fetch of a partition, so a consumer's fixed cost per batch is spread as thin. */
const MAX_BATCH = 20_000;

/**
 * Reads a messages stream as batches of one partition each, in order: every
 * record that arrived while the last batch was handled goes out at once,
 * grouped by partition. The stream flows (its own fetch loop keeps going; in
 * paused mode, read() after an empty fetch left it idle for good) and is
 * paused while MAX_BATCH records wait. Resolves when the stream closes;
 * rejects (and closes it) when the handler fails. `admit` is told each
 * record as it arrives, and one it refuses is dropped.
 */
export async function drainBatches(
  stream: MessagesStream<Buffer, Buffer, Buffer, Buffer>,
  handle: (messages: KafkaMessage[]) => Promise<void>,
  admit: (message: KafkaMessage) => boolean = () => true,
): Promise<void> {
  let waiting: KafkaMessage[] = [];
  let wake: (() => void) | undefined;
  const ended = new Promise<void>((resolve) => {
    stream.once('close', resolve);
    stream.once('end', resolve);
  });
  // An error is seen by the loop as a closed stream; kept so it is not thrown unhandled.
  stream.on('error', () => undefined);
  stream.on('data', (message: KafkaMessage) => {
    if (!admit(message)) return;
    waiting.push(message);
    if (waiting.length >= MAX_BATCH) stream.pause();
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
      if (stream.isPaused()) stream.resume();
      const byPartition = new Map<string, KafkaMessage[]>();
      for (const message of taken) {
        const slot = `${message.topic}:${message.partition}`;
        const messages = byPartition.get(slot);
        if (messages) messages.push(message);
        else byPartition.set(slot, [message]);
      }
      for (const messages of byPartition.values()) {
        if (stream.closed) return;
        await handle(messages);
      }
    }
  } catch (error) {
    if (!stream.closed) await stream.close();
    throw error;
  }
}
