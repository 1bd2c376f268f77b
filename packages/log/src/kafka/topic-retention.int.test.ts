import { ConfigResourceTypes, Kafka, logLevel, type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import { TOPICS } from '../topics';
import { createKafkaLog, KAFKA_CLIENTS } from './kafka-client';

const HOUR = 3_600_000;

describe.each(KAFKA_CLIENTS)('topic retention on Kafka through %s', (client) => {
  let admin: Admin;
  const namespace = uniqueNamespace(`retention-${client}`);
  const open = (retention: Parameters<typeof createKafkaLog>[0]['retention']) =>
    createKafkaLog({ brokers: kafkaBrokers(), clientId: 'test-retention', namespace, retention, client });

  /** What the broker says of a topic's overrides, as a reader outside Earshot sees them. */
  async function overrides(topic: string): Promise<Record<string, string>> {
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: `${namespace}${topic}` }],
    });
    return Object.fromEntries((resources[0]?.configEntries ?? []).filter((e) => !e.isDefault).map((e) => [e.configName, e.configValue]));
  }

  beforeAll(async () => {
    admin = new Kafka({ clientId: 'test-retention-admin', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
  });
  afterAll(async () => admin.disconnect());

  it('is set when the topics are made', async () => {
    const log = await open({ [TOPICS.events]: 'forever', [TOPICS.deliveries]: 36 * HOUR });
    await log.close();
    await expect.poll(() => overrides(TOPICS.events)).toMatchObject({ 'retention.ms': '-1' });
    await expect.poll(() => overrides(TOPICS.deliveries)).toMatchObject({ 'retention.ms': String(36 * HOUR) });
    await expect.poll(() => overrides(TOPICS.deadLetters)).not.toHaveProperty('retention.ms');
  });

  it('is corrected at the next start where it differs, keeping the topic’s other overrides', async () => {
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: `${namespace}${TOPICS.deliveries}`,
          configEntries: [
            { name: 'retention.ms', value: String(HOUR) },
            { name: 'max.message.bytes', value: '2097152' },
          ],
        },
      ],
    });
    await expect.poll(() => overrides(TOPICS.deliveries)).toMatchObject({ 'retention.ms': String(HOUR) });
    const log = await open({ [TOPICS.events]: 'forever', [TOPICS.deliveries]: 30 * 24 * HOUR, [TOPICS.deadLetters]: 7 * 24 * HOUR });
    await log.close();
    await expect.poll(() => overrides(TOPICS.deliveries)).toMatchObject({ 'retention.ms': String(30 * 24 * HOUR), 'max.message.bytes': '2097152' });
    await expect.poll(() => overrides(TOPICS.deadLetters)).toMatchObject({ 'retention.ms': String(7 * 24 * HOUR) });
    await expect.poll(() => overrides(TOPICS.events)).toMatchObject({ 'retention.ms': '-1' });
  });
});
