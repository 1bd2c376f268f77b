import { describe, expect, it } from 'vitest';
import { requiredDurability, SAFE_PRODUCER, unsafeLogSettings, type ObservedLog } from './log-safety';

const topic = (configs: Record<string, string>, replicationFactor = 3) => ({ name: 'earshot.events', replicationFactor, configs });
const cluster = (configs: Record<string, string>, replicationFactor = 3): ObservedLog => ({ brokers: 3, topics: [topic(configs, replicationFactor)] });
const safe = { 'min.insync.replicas': '2', 'cleanup.policy': 'delete', 'unclean.leader.election.enable': 'false' };

describe('the Kafka log’s safety check', () => {
  it('asks replication factor 3 and min.insync.replicas 2 of three brokers or more, what one broker holds of one', () => {
    expect(requiredDurability(5)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(requiredDurability(1)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(requiredDurability(3, 3)).toEqual({ replicationFactor: 3, minInsyncReplicas: 3 });
    expect(unsafeLogSettings({ brokers: 1, topics: [] }, SAFE_PRODUCER, requiredDurability(1, 2))).toEqual([
      'min.insync.replicas 2 is asked (EARSHOT_KAFKA_MIN_INSYNC_REPLICAS), but the cluster has 1 broker(s): lower it or add brokers',
    ]);
  });

  it('passes a safe producer and topic', () => {
    expect(unsafeLogSettings(cluster(safe), SAFE_PRODUCER, requiredDurability(3))).toEqual([]);
  });

  it('names each unsafe setting and how to fix it', () => {
    const problems = unsafeLogSettings(
      cluster({ 'min.insync.replicas': '1', 'cleanup.policy': 'compact,delete', 'unclean.leader.election.enable': 'true' }, 1),
      { acks: 1, idempotent: false },
      requiredDurability(3),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^producer acks=1: .*use acks=all$/),
      expect.stringMatching(/^producer enable.idempotence=false/),
      expect.stringMatching(/^topic earshot.events has replication factor 1, below 3/),
      expect.stringMatching(/^topic earshot.events has min.insync.replicas=1, below 2: kafka-configs.sh .* --add-config min.insync.replicas=2$/),
      expect.stringMatching(/^topic earshot.events has cleanup.policy=compact,delete: .*--add-config cleanup.policy=delete$/),
      expect.stringMatching(/^topic earshot.events has unclean.leader.election.enable=true: .*unclean.leader.election.enable=false$/),
    ]);
  });
});
