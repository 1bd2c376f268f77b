import type { EventLog } from '../event-log';
import type { KafkaClient, KafkaLogOptions } from './kafka-log';

export const KAFKA_CLIENTS: readonly KafkaClient[] = ['kafkajs', 'platformatic'];

/** The client used when neither the options nor EARSHOT_KAFKA_CLIENT name one; packages/log/README.md says why. */
const DEFAULT_CLIENT: KafkaClient = 'platformatic';

/**
 * The EventLog on Apache Kafka through the chosen client. The environment is
 * read here, not in the config, so every process (tests and benchmarks too)
 * runs on the one client a run names. Only that client is loaded: the
 * embedded log and the other client's processes never import it.
 */
export async function createKafkaLog(options: KafkaLogOptions): Promise<EventLog> {
  const client = options.client ?? clientFromEnvironment(process.env.EARSHOT_KAFKA_CLIENT);
  if (client === 'platformatic') return (await import('./platformatic-log')).createPlatformaticLog(options);
  return (await import('./kafka-log')).createKafkajsLog(options);
}

function clientFromEnvironment(value: string | undefined): KafkaClient {
  if (value === undefined || value === '') return DEFAULT_CLIENT;
  const client = KAFKA_CLIENTS.find((c) => c === value);
  if (!client) throw new Error(`EARSHOT_KAFKA_CLIENT must be one of ${KAFKA_CLIENTS.join(', ')}; it is ${value}`);
  return client;
}
