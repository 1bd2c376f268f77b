import { ConfigResourceTypes, type Admin } from '@platformatic/kafka';
import { CHECKED_SETTINGS, type ObservedLog } from './log-safety';

/** The broker count, and each topic's replication factor and effective checked settings, as @platformatic/kafka's admin describes them. */
export async function observePlatformaticLog(admin: Admin, topics: readonly string[]): Promise<ObservedLog> {
  const [metadata, described] = await Promise.all([
    admin.metadata({ topics: [...topics], forceUpdate: true }),
    admin.describeConfigs({
      resources: topics.map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name, configurationKeys: [...CHECKED_SETTINGS] })),
    }),
  ]);
  return {
    brokers: metadata.brokers.size,
    topics: described.map((resource) => {
      const partitions = metadata.topics.get(resource.resourceName)?.partitions ?? [];
      return {
        name: resource.resourceName,
        replicationFactor: partitions.length === 0 ? 0 : Math.min(...partitions.map((p) => p.replicas.length)),
        configs: Object.fromEntries(resource.configs.map((c) => [c.name, c.value ?? undefined])),
      };
    }),
  };
}
