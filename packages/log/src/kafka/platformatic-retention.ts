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
  const described = await admin.describeConfigs({
    resources: [...wanted.keys()].map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name, configurationKeys: ['retention.ms'] })),
  });
  const corrected: TopicName[] = [];
  for (const resource of described) {
    const want = wanted.get(resource.resourceName);
    const current = resource.configs.find((c) => c.name === 'retention.ms');
    if (want === undefined || (current?.configSource === ConfigSources.TOPIC_CONFIG && current.value === want.value)) continue;
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
  return corrected;
}
