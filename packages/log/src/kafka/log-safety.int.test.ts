import { ConfigResourceTypes, Kafka, logLevel, type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaBrokers, recordFigure, uniqueNamespace } from '@earshot/testing';
import { ALL_TOPICS, PARTITIONS, TOPICS } from '../topics';
import { createKafkaLog, KAFKA_CLIENTS } from './kafka-client';

/** Each test opens the log through both clients, each on topics of its own. */
describe('startup of the Kafka log', () => {
  let admin: Admin;
  const open = (namespace: string, client: (typeof KAFKA_CLIENTS)[number], minInsyncReplicas?: number) =>
    createKafkaLog({ brokers: kafkaBrokers(), clientId: 'test-log-safety', namespace, client, minInsyncReplicas });

  /** Makes a namespace's topics by hand, as an operator might, the events topic with these settings. */
  async function topicsWith(name: string, events: Record<string, string>): Promise<string> {
    const namespace = uniqueNamespace(name);
    // kafkajs's wait for leaders can miss a topic the broker just made: the listing below waits instead.
    await admin.createTopics({
      waitForLeaders: false,
      topics: ALL_TOPICS.map((t) => ({
        topic: `${namespace}${t}`,
        numPartitions: PARTITIONS[t],
        replicationFactor: 1,
        configEntries: t === TOPICS.events ? Object.entries(events).map(([config, value]) => ({ name: config, value })) : [],
      })),
    });
    await expect.poll(async () => (await admin.listTopics()).filter((topic) => topic.startsWith(namespace)).length).toBe(ALL_TOPICS.length);
    return namespace;
  }

  beforeAll(async () => {
    admin = new Kafka({ clientId: 'test-log-safety-admin', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
  });
  afterAll(async () => admin.disconnect());

  it('starts on the test broker with the topics it makes, which carry the safe settings', async () => {
    for (const client of KAFKA_CLIENTS) {
      const namespace = uniqueNamespace(`safe-${client}`);
      const log = await open(namespace, client);
      await log.close();
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: `${namespace}${TOPICS.events}` }],
      });
      const settings = Object.fromEntries((resources[0]?.configEntries ?? []).map((e) => [e.configName, e.configValue]));
      expect(settings).toMatchObject({ 'cleanup.policy': 'delete', 'min.insync.replicas': '1', 'unclean.leader.election.enable': 'false' });
    }
  });

  it('refuses an events topic with cleanup.policy=compact, naming the setting and the fix', async () => {
    for (const client of KAFKA_CLIENTS) {
      const namespace = await topicsWith(`compact-${client}`, { 'cleanup.policy': 'compact' });
      const refused = open(namespace, client);
      await expect(refused).rejects.toThrow(`topic ${namespace}${TOPICS.events} has cleanup.policy=compact`);
      await expect(refused).rejects.toThrow(`--entity-name ${namespace}${TOPICS.events} --add-config cleanup.policy=delete`);
    }
  });

  it('refuses a topic that lets an out-of-sync replica lead', async () => {
    for (const client of KAFKA_CLIENTS) {
      const namespace = await topicsWith(`unclean-${client}`, { 'unclean.leader.election.enable': 'true' });
      await expect(open(namespace, client)).rejects.toThrow(`topic ${namespace}${TOPICS.events} has unclean.leader.election.enable=true`);
    }
  });

  it('refuses topics below the configured min.insync.replicas and replication factor', async ({ task }) => {
    for (const client of KAFKA_CLIENTS) {
      const namespace = await topicsWith(`insync-${client}`, {});
      const refused = open(namespace, client, 2);
      await expect(refused).rejects.toThrow(`topic ${namespace}${TOPICS.events} has min.insync.replicas=1, below 2`);
      await expect(refused).rejects.toThrow(`topic ${namespace}${TOPICS.events} has replication factor 1, below 2`);
    }
    recordFigure(
      task,
      `refused at startup through ${KAFKA_CLIENTS.join(' and ')}: cleanup.policy=compact, unclean.leader.election.enable=true, min.insync.replicas and replication factor below 2`,
    );
  });
});
