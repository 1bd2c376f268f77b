import type { ConnectionPool } from '@earshot/db';
import { TOPICS, type EventLog, type LogRecord, type Running } from '@earshot/log';
import { runEvery } from '@earshot/server';
import { fallbackLogger } from '@earshot/telemetry';
import { createBatchApplier, type BatchApplierOptions, type BatchOutcome } from './store/apply-batch';
import { startPosition } from './store/positions';
import { CommittedPositions } from './store/positions-behind';

/** With the batch applier's keys: what opens sealed events, holds their keys, and names erased calls. */
export interface ProjectorOptions extends Pick<BatchApplierOptions, 'keys' | 'holdKeys' | 'erasedCalls' | 'holdErasures'> {
  db: ConnectionPool;
  log: EventLog;
  /** Consumer group: projectors sharing it share the partitions. */
  group?: string;
  /**
   * Consumers in this process, each with its own share of the partitions and
   * its own transactions: a batch waits mostly on Postgres, so several in
   * flight keep it busy.
   */
  concurrency?: number;
  maxTries?: number;
  now?: () => Date;
  onBatch?: (outcome: BatchOutcome, records: readonly LogRecord[]) => void;
  onRetry?: (error: unknown) => void;
  /** How often the stored positions are compared with what this process committed (10 s). */
  positionCheckMs?: number;
  /** Told when the stored positions went back behind what this process committed, before the consumers rejoin to read them again. */
  onBehind?: (partitions: readonly string[]) => void;
}

/** The topics the read models are made from: events, and deliveries for the API request meters. */
export const PROJECTED_TOPICS = [TOPICS.events, TOPICS.deliveries] as const;

/**
 * Consumes the log into the read models. Stopping lets the batch in hand
 * finish and commit; the next start (and every partition the group hands
 * over) resumes from the positions in Postgres, not the group's, and so does
 * a running partition whose stored position falls behind its batches.
 */
export async function startProjector(options: ProjectorOptions): Promise<Running> {
  let stopping = false;
  const apply = createBatchApplier({
    db: options.db,
    log: options.log,
    maxTries: options.maxTries,
    now: options.now,
    onRetry: options.onRetry ?? ((error) => fallbackLogger().warn({ err: error }, 'projector batch failed; retrying')),
    isStopping: () => stopping,
    keys: options.keys,
    holdKeys: options.holdKeys,
    erasedCalls: options.erasedCalls,
    holdErasures: options.holdErasures,
    readsAgain: true,
  });
  const committed = new CommittedPositions();
  const consume = () =>
    Promise.all(
      Array.from({ length: options.concurrency ?? 3 }, () =>
        options.log.consume({
          group: options.group ?? 'projector',
          topics: PROJECTED_TOPICS,
          onBatch: async (records) => {
            const outcome = await apply(records);
            options.onBatch?.(outcome, records);
            if (outcome.readFrom !== undefined) return { readFrom: outcome.readFrom };
            committed.committed(records);
            return undefined;
          },
          start: (topic, partition) => startPosition(options.db, topic, partition),
        }),
      ),
    );
  let consumers = await consume();
  // A partition behind with no new records has no batch to find it out: the consumers leave and join again, and every
  // partition starts where `start` says.
  const check = runEvery(
    options.positionCheckMs ?? 10_000,
    async () => {
      const behind = await committed.behind(options.db);
      if (behind.length === 0 || stopping) return;
      options.onBehind?.(behind);
      await Promise.all(consumers.map((c) => c.stop()));
      if (!stopping) consumers = await consume();
    },
    (error) => fallbackLogger().warn({ err: error }, 'comparing the stored positions failed; trying again'),
  );
  return {
    stop: async () => {
      stopping = true;
      await check.stop();
      await Promise.all(consumers.map((c) => c.stop()));
    },
  };
}
