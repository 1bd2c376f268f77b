import { Producer, type MessageToProduce, type ProduceResult, type ProducerOptions } from '@platformatic/kafka';

/** Kafka's own delivery.timeout.ms: how long a request is sent again while nothing tells whether the broker stored it. */
const DELIVERY_TIMEOUT_MS = 120_000;

type OutgoingMessage = MessageToProduce<Buffer, Buffer, Buffer, Buffer>;

export interface ExactlyOnceProducer {
  /** Sends records with their partitions set; answers each partition's first offset written, by `topic:partition`. */
  send(messages: readonly OutgoingMessage[]): Promise<Map<string, bigint>>;
  /** Stops sending again what the broker has not answered, then closes. */
  close(): Promise<void>;
}

/**
 * An idempotent @platformatic/kafka producer that stays exactly-once across
 * a broker restart. The client advances a partition's sequence number only
 * when the broker answers, and gives a request up after its few retries; a
 * request given up keeps its numbers, so if the broker had stored it, the next
 * request of as many records is taken for its duplicate: acknowledged and
 * never stored (a restart lost an event answered 202). So a request the
 * broker may have stored is sent again, with the same records per partition
 * and so the same numbers, until the broker answers (a stored copy is
 * answered as a duplicate) or `deliveryTimeoutMs` passes; a producer that
 * gave a request up is replaced, and a new producer id starts sequences the
 * broker has never seen. One request at a time: the client's numbering
 * allows no more (see createPlatformaticLog).
 */
export function exactlyOnceProducer(options: ProducerOptions<Buffer, Buffer, Buffer, Buffer>, deliveryTimeoutMs = DELIVERY_TIMEOUT_MS): ExactlyOnceProducer {
  let current: Producer<Buffer, Buffer, Buffer, Buffer> | undefined;
  let sending: Promise<unknown> = Promise.resolve();
  const closing = new AbortController();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      closing.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  const giveUp = (producer: Producer<Buffer, Buffer, Buffer, Buffer>) => {
    if (current === producer) current = undefined;
    producer.close(true, () => undefined);
  };

  const send = async (messages: readonly OutgoingMessage[]): Promise<Map<string, bigint>> => {
    const firstOffsets = new Map<string, bigint>();
    const take = (result: ProduceResult | undefined) => {
      for (const written of result?.offsets ?? []) firstOffsets.set(`${written.topic}:${written.partition}`, BigInt(written.offset));
    };
    const deadline = Date.now() + deliveryTimeoutMs;
    let pending = [...messages];
    for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
      if (closing.signal.aborted) throw new Error('the event log is closing; nothing more is appended');
      const producer = (current ??= new Producer(options));
      try {
        take(await producer.send({ messages: pending }));
        return firstOffsets;
      } catch (error) {
        // Partitions the broker did answer have moved their numbers on: only the others are sent again.
        take(typeof error === 'object' && error !== null && 'produced' in error ? (error.produced as ProduceResult) : undefined);
        pending = pending.filter((message) => !firstOffsets.has(`${message.topic}:${message.partition}`));
        if (closing.signal.aborted || !unanswered(error) || Date.now() + wait > deadline) {
          giveUp(producer);
          throw error;
        }
        await pause(wait);
      }
    }
  };

  return {
    send(messages) {
      const sent = send(messages);
      sending = sent.catch(() => undefined);
      return sent;
    },
    async close() {
      closing.abort();
      await sending;
      await current?.close();
      current = undefined;
    },
  };
}

/**
 * Whether a failed send leaves unknown if the broker stored it: every failure
 * in it is the network's (a lost connection, a request timed out) or one the
 * broker says will pass, none a refusal of the records.
 */
function unanswered(error: unknown): boolean {
  const failures = (e: unknown): unknown[] => (e instanceof AggregateError ? e.errors.flatMap(failures) : [e]);
  return failures(error).every(
    (failure) =>
      typeof failure === 'object' &&
      failure !== null &&
      (('code' in failure && failure.code === 'PLT_KFK_NETWORK') || ('canRetry' in failure && failure.canRetry === true)),
  );
}
