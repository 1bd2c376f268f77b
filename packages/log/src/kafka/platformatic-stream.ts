import type { Readable } from 'node:stream';
import type { Message, MessagesStream } from '@platformatic/kafka';

export type KafkaMessage = Message<Buffer, Buffer, Buffer, Buffer>;

/** Records handed to a handler at once at most, so one call stays bounded when far behind. */
const MAX_BATCH = 5_000;

/**
 * Reads a messages stream as batches of one partition each, in order: every
 * record the stream holds when the last batch finished goes out at once,
 * grouped by partition. The stream reads ahead while a batch is handled, up
 * to its high-water mark. Resolves when the stream closes; rejects (and
 * closes it) when the handler fails.
 */
export async function drainBatches(stream: MessagesStream<Buffer, Buffer, Buffer, Buffer>, handle: (messages: KafkaMessage[]) => Promise<void>): Promise<void> {
  const readable: Readable = stream;
  const ended = new Promise<void>((resolve) => {
    stream.once('close', resolve);
    stream.once('end', resolve);
  });
  // An error is seen by the read loop as a closed stream; kept so it is not thrown unhandled.
  stream.on('error', () => undefined);
  try {
    while (!stream.destroyed && !stream.closed) {
      const byPartition = new Map<string, KafkaMessage[]>();
      let count = 0;
      for (let message = stream.read() as KafkaMessage | null; message !== null; message = count < MAX_BATCH ? (stream.read() as KafkaMessage | null) : null) {
        const slot = `${message.topic}:${message.partition}`;
        const messages = byPartition.get(slot);
        if (messages) messages.push(message);
        else byPartition.set(slot, [message]);
        count++;
      }
      if (count === 0) {
        await Promise.race([new Promise((resolve) => readable.once('readable', resolve)), ended]);
        continue;
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
