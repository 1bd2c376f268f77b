import type { ConnectionPool } from '@earshot/db';
import { TOPICS, type EventLog, type Running } from '@earshot/log';
import { storeAuditBatch, type AuditBatchOutcome } from './audit-store';

export const AUDITED_TOPICS = [TOPICS.deliveries, TOPICS.deadLetters] as const;

export interface AuditConsumerOptions {
  db: ConnectionPool;
  log: EventLog;
  group?: string;
  onBatch?: (outcome: AuditBatchOutcome) => void;
  report?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Consumes deliveries and dead letters into their tables. A failed batch
 * (the database away) is retried with backoff until it passes or the
 * consumer stops; stopping lets the batch in hand commit.
 */
export async function startAuditConsumer(options: AuditConsumerOptions): Promise<Running> {
  const report = options.report ?? ((line: string) => console.error(`[audit] ${line}`));
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
          report(`storing a batch failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
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
