import kafkajs, { type Admin } from 'kafkajs';
import type { Logger } from '@earshot/telemetry';
import type { TopicName } from '../topics';

// kafkajs is CommonJS: Node's ESM loader finds only some of its names, and not these enums.
const { ConfigResourceTypes, ConfigSource } = kafkajs;

/** How long a topic keeps records, in milliseconds, or for ever. */
export type TopicRetention = Partial<Record<TopicName, number | 'forever'>>;

const retentionMs = (keep: number | 'forever'): string => (keep === 'forever' ? '-1' : String(keep));

/** The retention.ms each physical topic should carry, by physical name. */
export function wantedRetention(physical: (t: TopicName) => string, retention: TopicRetention): Map<string, { topic: TopicName; value: string }> {
  return new Map(
    (Object.entries(retention) as [TopicName, number | 'forever'][]).map(([topic, keep]) => [physical(topic), { topic, value: retentionMs(keep) }]),
  );
}

/** The topic's config entries at creation: its retention where one is set. */
export function retentionEntries(topic: TopicName, retention: TopicRetention): { name: string; value: string }[] {
  const keep = retention[topic];
  return keep === undefined ? [] : [{ name: 'retention.ms', value: retentionMs(keep) }];
}

/**
 * Checks every topic's retention.ms against the setting and corrects the
 * ones that differ (a topic made before the setting changed, or by hand),
 * saying so. Answers the topics corrected.
 */
export async function enforceRetention(admin: Admin, physical: (t: TopicName) => string, retention: TopicRetention, logger: Logger): Promise<TopicName[]> {
  const wanted = wantedRetention(physical, retention);
  if (wanted.size === 0) return [];
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [...wanted.keys()].map((name) => ({ type: ConfigResourceTypes.TOPIC, name })),
  });
  const corrected: TopicName[] = [];
  for (const resource of resources) {
    const want = wanted.get(resource.resourceName);
    const current = resource.configEntries.find((e) => e.configName === 'retention.ms');
    if (want === undefined || (current?.configSource === ConfigSource.TOPIC_CONFIG && current.configValue === want.value)) continue;
    // alterConfigs replaces the topic's whole set of overrides: the others are sent back as they were.
    const others = resource.configEntries
      .filter((e) => e.configSource === ConfigSource.TOPIC_CONFIG && e.configName !== 'retention.ms')
      .map((e) => ({ name: e.configName, value: e.configValue }));
    await admin.alterConfigs({
      validateOnly: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: resource.resourceName, configEntries: [...others, { name: 'retention.ms', value: want.value }] }],
    });
    logger.warn({ topic: resource.resourceName, was: current?.configValue ?? null, now: want.value }, 'topic retention.ms corrected');
    corrected.push(want.topic);
  }
  return corrected;
}
