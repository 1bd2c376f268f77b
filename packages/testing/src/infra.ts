import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createKafkaLog, type EventLog } from '@earshot/log';

/** A namespace per test, so test files and tests can run side by side on one broker. */
export function uniqueNamespace(label: string): string {
  return `t-${label}-${randomBytes(4).toString('hex')}.`;
}

export function kafkaBrokers(): string[] {
  return inject('kafkaBrokers').split(',');
}

export function databaseUrl(): string {
  return inject('databaseUrl');
}

export async function kafkaLog(label: string): Promise<EventLog> {
  return createKafkaLog({ brokers: kafkaBrokers(), clientId: `test-${label}`, namespace: uniqueNamespace(label) });
}
