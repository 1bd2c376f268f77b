import type { ConnectionPool } from '@earshot/db';
import { TOPICS, type EventLog, type Running } from '@earshot/log';
import { fallbackLogger, type Logger } from '@earshot/telemetry';
import { storeAuditBatch, type AuditBatchOutcome } from './audit-store';

export const AUDITED_TOPICS = [TOPICS.deliveries, TOPICS.deadLetters] as const;

export interface AuditConsumerOptions {
  db: ConnectionPool;
  log: EventLog;
  group?: string;
  onBatch?: (outcome: AuditBatchOutcome) => void;
  logger?: Logger;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Consumes deliveries and dead letters into their tables. A failed batch
 * (the database away) is retried with backoff until it passes or the
 * consumer stops; stopping lets the batch in hand commit.
 */
export async function startAuditConsumer(options: AuditConsumerOptions): Promise<Running> {
  const logger = options.logger ?? fallbackLogger();
  const report = (line: string) => logger.warn(line);
  let stopping = false;
  const consumer = await options.log.consume({
    group: options.group ?? 'audit',
    topics: AUDITED_TOPICS,
    onBatch: async (records) => {
      for (let failures = 0; ; failures++) {
        try {
          const outcome = await storeAuditBatch(options.db, records, report);
          options.onBatch?.(outcome);
          return;
        } catch (error) {
          logger.error({ err: error }, 'storing an audit batch failed; retrying');
          if (stopping) throw error;
          await sleep(Math.min(50 * 2 ** Math.min(failures, 7), 5_000));
        }
      }
    },
  });
  return {
    stop: async () => {
      stopping = true;
      await consumer.stop();
    },
  };
}
