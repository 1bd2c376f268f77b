/** What the producer promises of an acknowledged append: acks as Kafka counts them (-1: every in-sync replica), and whether a retry can duplicate. */
export interface ProducerDurability {
  acks: -1 | 0 | 1;
  idempotent: boolean;
}

/** The one producer setting both adapters build their producer from, and the startup check reads. */
export const SAFE_PRODUCER: ProducerDurability = { acks: -1, idempotent: true };

/** What every topic must have at least, for the cluster the log runs on. */
export interface DurabilityRequirement {
  replicationFactor: number;
  minInsyncReplicas: number;
}

/** What the check reads of the cluster: its broker count, and per physical topic its replication factor and effective settings. */
export interface ObservedLog {
  brokers: number;
  topics: readonly { name: string; replicationFactor: number; configs: Readonly<Record<string, string | undefined>> }[];
}

/**
 * What counts as safe on a cluster of this size. Three brokers or more:
 * replication factor 3 and min.insync.replicas 2, so an acknowledged append
 * is on two brokers and survives losing one. Fewer (a single broker in
 * development and tests): what the cluster can hold, min.insync.replicas 1.
 * `minInsyncReplicas` (EARSHOT_KAFKA_MIN_INSYNC_REPLICAS) raises or lowers
 * the floor; the replication factor is never below it.
 */
export function requiredDurability(brokers: number, minInsyncReplicas?: number): DurabilityRequirement {
  const minimum = minInsyncReplicas ?? (brokers >= 3 ? 2 : 1);
  return { replicationFactor: Math.max(minimum, Math.min(brokers, 3)), minInsyncReplicas: minimum };
}

/** A new topic's replication factor: what is required, or what the cluster holds when it is too small (the check then says so). */
export const creationReplicas = (required: DurabilityRequirement, brokers: number): number => Math.min(required.replicationFactor, brokers);

/** Topic settings at creation, so a topic Earshot makes passes the check whatever the broker's defaults. */
export function creationEntries(required: DurabilityRequirement): { name: string; value: string }[] {
  return [
    { name: 'min.insync.replicas', value: String(required.minInsyncReplicas) },
    { name: 'cleanup.policy', value: 'delete' },
    { name: 'unclean.leader.election.enable', value: 'false' },
  ];
}

const alter = (topic: string, setting: string) =>
  `kafka-configs.sh --bootstrap-server <broker> --alter --entity-type topics --entity-name ${topic} --add-config ${setting}`;

/** Every unsafe setting of the producer and the topics, each with how to fix it; empty when the log is safe to start. */
export function unsafeLogSettings(observed: ObservedLog, producer: ProducerDurability, required: DurabilityRequirement): string[] {
  const problems: string[] = [];
  if (required.minInsyncReplicas > observed.brokers) {
    problems.push(
      `min.insync.replicas ${required.minInsyncReplicas} is asked (EARSHOT_KAFKA_MIN_INSYNC_REPLICAS), but the cluster has ${observed.brokers} broker(s): lower it or add brokers`,
    );
  }
  if (producer.acks !== -1) problems.push(`producer acks=${producer.acks}: an append is acknowledged before every in-sync replica has it; use acks=all`);
  if (!producer.idempotent) problems.push('producer enable.idempotence=false: a retried append can be stored twice; make the producer idempotent');
  for (const { name, replicationFactor, configs } of observed.topics) {
    if (replicationFactor < required.replicationFactor) {
      problems.push(
        `topic ${name} has replication factor ${replicationFactor}, below ${required.replicationFactor}: add replicas with kafka-reassign-partitions.sh`,
      );
    }
    const minInsync = Number(configs['min.insync.replicas'] ?? '1');
    if (minInsync < required.minInsyncReplicas) {
      problems.push(
        `topic ${name} has min.insync.replicas=${minInsync}, below ${required.minInsyncReplicas}: ${alter(name, `min.insync.replicas=${required.minInsyncReplicas}`)}`,
      );
    }
    const cleanup = configs['cleanup.policy'] ?? 'delete';
    if (cleanup.split(',').includes('compact')) {
      problems.push(`topic ${name} has cleanup.policy=${cleanup}: compaction drops earlier records of a key; ${alter(name, 'cleanup.policy=delete')}`);
    }
    if (configs['unclean.leader.election.enable'] === 'true') {
      problems.push(
        `topic ${name} has unclean.leader.election.enable=true: a lagging replica can become leader and drop acknowledged records; ${alter(name, 'unclean.leader.election.enable=false')}`,
      );
    }
  }
  return problems;
}

/** Startup refuses a log with an unsafe setting, naming every one and how to fix it. */
export function refuseUnsafeLog(observed: ObservedLog, producer: ProducerDurability, required: DurabilityRequirement): void {
  const problems = unsafeLogSettings(observed, producer, required);
  if (problems.length > 0) throw new Error(`Kafka has unsafe settings for Earshot's log (packages/log/README.md):\n- ${problems.join('\n- ')}`);
}

/** The settings the check reads from each topic's description. */
export const CHECKED_SETTINGS = ['min.insync.replicas', 'cleanup.policy', 'unclean.leader.election.enable'] as const;
