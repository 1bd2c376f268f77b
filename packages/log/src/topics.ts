/**
 * Every topic Earshot writes, in one place, so producers and consumers agree
 * by construction. Keys and payloads per topic are documented here too.
 */
export const TOPICS = {
  /** Avro single-object-encoded events, keyed `tenant:call` so one call's events stay ordered. */
  events: 'earshot.events',
  /** Dead letters: payloads that failed validation or projection, with the reason. */
  deadLetters: 'earshot.dlq',
  /** One record per ingest delivery, for the delivery audit log. */
  deliveries: 'earshot.deliveries',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export const ALL_TOPICS: readonly TopicName[] = Object.values(TOPICS);

/** Partitions of each topic: the events topic is the one scaled out by consumers. */
export const PARTITIONS: Record<TopicName, number> = {
  'earshot.events': 6,
  'earshot.dlq': 1,
  'earshot.deliveries': 3,
};
