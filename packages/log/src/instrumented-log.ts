import type { Metrics } from '@earshot/telemetry';
import type { EventLog } from './event-log';
import type { TopicName } from './topics';

/**
 * The event log as the process uses it, whichever adapter is underneath:
 * every append counted by topic and timed, acknowledged or failed.
 */
export function instrumentLog(log: EventLog, metrics: Metrics): EventLog {
  return {
    append: async (records) => {
      const timer = metrics.logAppendDuration.startTimer();
      try {
        const positions = await log.append(records);
        timer({ outcome: 'ok' });
        const byTopic = new Map<TopicName, number>();
        for (const { topic } of records) byTopic.set(topic, (byTopic.get(topic) ?? 0) + 1);
        for (const [topic, count] of byTopic) metrics.logAppendedRecords.inc({ topic }, count);
        return positions;
      } catch (error) {
        timer({ outcome: 'error' });
        throw error;
      }
    },
    consume: (options) => log.consume(options),
    replay: (options) => log.replay(options),
    subscribe: (options) => log.subscribe(options),
    ends: (topic) => log.ends(topic),
    ping: () => log.ping(),
    close: () => log.close(),
  };
}
