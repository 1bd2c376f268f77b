import { ConfigResourceTypes, ConfigSources, IncrementalAlterConfigOperationTypes, type Admin } from '@platformatic/kafka';
import type { Logger } from '@earshot/telemetry';
import type { TopicName } from '../topics';
import { wantedRetention, type TopicRetention } from './topic-retention';

/**
 * enforceRetention for @platformatic/kafka: checks every topic's
 * retention.ms against the setting and corrects the ones that differ.
 * An incremental alter sets retention.ms alone, leaving the topic's other
 * overrides as they are. Answers the topics corrected.
 */
export async function enforcePlatformaticRetention(
  admin: Admin,
  physical: (t: TopicName) => string,
  retention: TopicRetention,
  logger: Logger,
): Promise<TopicName[]> {
  const wanted = wantedRetention(physical, retention);
  if (wanted.size === 0) return [];
  const differing = async () =>
    (await describe(admin, [...wanted.keys()])).filter((resource) => {
      const want = wanted.get(resource.resourceName);
      const current = resource.configs.find((c) => c.name === 'retention.ms');
      return want !== undefined && !(current?.configSource === ConfigSources.TOPIC_CONFIG && current.value === want.value);
    });
  const corrected: TopicName[] = [];
  for (const resource of await differing()) {
    const want = wanted.get(resource.resourceName) as { topic: TopicName; value: string };
    const current = resource.configs.find((c) => c.name === 'retention.ms');
    await admin.incrementalAlterConfigs({
      resources: [
        {
          resourceType: ConfigResourceTypes.TOPIC,
          resourceName: resource.resourceName,
          configs: [{ name: 'retention.ms', configOperation: IncrementalAlterConfigOperationTypes.SET, value: want.value }],
        },
      ],
    });
    logger.warn({ topic: resource.resourceName, was: current?.value ?? null, now: want.value }, 'topic retention.ms corrected');
    corrected.push(want.topic);
  }
  // The controller answers once the change is committed and the broker applies it a moment later (a loaded
  // machine read the old value back after opening): opening returns once the broker reports what was set.
  for (let attempt = 0; corrected.length > 0 && attempt < 100 && (await differing()).length > 0; attempt++) await new Promise((r) => setTimeout(r, 50));
  return corrected;
}

function describe(admin: Admin, names: readonly string[]) {
  return admin.describeConfigs({
    resources: names.map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name, configurationKeys: ['retention.ms'] })),
  });
}
