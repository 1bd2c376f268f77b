import type { EventLog } from '../event-log';
import { createKafkajsLog, type KafkaClient, type KafkaLogOptions } from './kafka-log';
import { createPlatformaticLog } from './platformatic-log';

export const KAFKA_CLIENTS: readonly KafkaClient[] = ['kafkajs', 'platformatic'];

/** The client used when neither the options nor EARSHOT_KAFKA_CLIENT name one; packages/log/README.md says why. */
const DEFAULT_CLIENT: KafkaClient = 'platformatic';

/**
 * The EventLog on Apache Kafka through the chosen client. The environment is
 * read here, not in the config, so every process (tests and benchmarks too)
 * runs on the one client a run names.
 */
export function createKafkaLog(options: KafkaLogOptions): Promise<EventLog> {
  const client = options.client ?? clientFromEnvironment(process.env.EARSHOT_KAFKA_CLIENT);
  return client === 'platformatic' ? createPlatformaticLog(options) : createKafkajsLog(options);
}

function clientFromEnvironment(value: string | undefined): KafkaClient {
  if (value === undefined || value === '') return DEFAULT_CLIENT;
  const client = KAFKA_CLIENTS.find((c) => c === value);
  if (!client) throw new Error(`EARSHOT_KAFKA_CLIENT must be one of ${KAFKA_CLIENTS.join(', ')}; it is ${value}`);
  return client;
}
