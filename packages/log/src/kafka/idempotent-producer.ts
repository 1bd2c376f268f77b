import { Kafka, Partitioners, logLevel, type ISocketFactory, type Producer, type ProducerBatch, type RecordMetadata } from 'kafkajs';

/**
 * How long one produce request keeps being retried while no broker answers
 * (a restart takes over 90 s on two busy cores): about Kafka's own
 * delivery.timeout.ms of two minutes, in reconnects at most 2 s apart.
 */
const RECONNECT_RETRY = { initialRetryTime: 100, maxRetryTime: 2_000, retries: 64 };

export interface IdempotentProducer {
  sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]>;
  disconnect(): Promise<void>;
}

/**
 * An idempotent kafkajs producer that stays exactly-once across a broker
 * restart. kafkajs retries a request with its sequence numbers, so a copy the
 * broker already stored is answered, not appended again; but it gives up once
 * reconnecting fails its `retries` times, and then rolls those numbers back
 * even if the broker stored the request. The next request of as many records
 * would be taken for that one and dropped while acknowledged (a restart lost
 * 3 events answered 202), any other is refused as out of order. So reconnects
 * are retried for minutes rather than seconds, and a producer that gave up is
 * replaced: a new producer id starts sequences the broker has never seen.
 */
export async function idempotentProducer(options: {
  clientId: string;
  brokers: readonly string[];
  /** Where the connections to the brokers come from; kafkajs's own when not given (a test cuts them). */
  socketFactory?: ISocketFactory;
}): Promise<IdempotentProducer> {
  const { clientId, brokers, socketFactory } = options;
  const kafka = new Kafka({ clientId, brokers: [...brokers], logLevel: logLevel.NOTHING, retry: RECONNECT_RETRY, ...(socketFactory ? { socketFactory } : {}) });
  const connected = async (): Promise<Producer> => {
    // An idempotent kafkajs producer keeps one request in flight; the batcher keeps it full.
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    return producer;
  };
  let current: Producer | undefined = await connected();
  return {
    async sendBatch(batch) {
      const producer = current ?? (current = await connected());
      try {
        return await producer.sendBatch(batch);
      } catch (error) {
        current = undefined;
        await producer.disconnect().catch(() => undefined);
        throw error;
      }
    },
    async disconnect() {
      await current?.disconnect();
      current = undefined;
    },
  };
}
