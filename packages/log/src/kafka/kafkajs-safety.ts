import kafkajs, { type Admin } from 'kafkajs';
import { CHECKED_SETTINGS, type ObservedLog } from './log-safety';

// kafkajs is CommonJS: Node's ESM loader finds only some of its names, and not this enum.
const { ConfigResourceTypes } = kafkajs;

/** The broker count, and each topic's replication factor and effective checked settings, as kafkajs's admin describes them. */
export async function observeKafkajsLog(admin: Admin, topics: readonly string[]): Promise<ObservedLog> {
  const [{ brokers }, metadata, described] = await Promise.all([
    admin.describeCluster(),
    admin.fetchTopicMetadata({ topics: [...topics] }),
    admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: [...CHECKED_SETTINGS] })),
    }),
  ]);
  const replicas = new Map(metadata.topics.map((t) => [t.name, Math.min(...t.partitions.map((p) => p.replicas.length))]));
  return {
    brokers: brokers.length,
    topics: described.resources.map((resource) => ({
      name: resource.resourceName,
      replicationFactor: replicas.get(resource.resourceName) ?? 0,
      configs: Object.fromEntries(resource.configEntries.map((e) => [e.configName, e.configValue])),
    })),
  };
}
