import type { LogRecord } from '@earshot/log';
import type { Metrics } from '@earshot/telemetry';
import type { BatchOutcome } from './store/apply-batch';

/**
 * Counts a committed batch by outcome and times each record it newly took
 * from its append to the log to now (its effect committed, so visible to
 * reads). The skipped ones, applied before and re-delivered, come first in
 * a batch (offset order) and are left out of the freshness.
 */
export function countBatch(metrics: Metrics, outcome: BatchOutcome, records: readonly LogRecord[], now: Date): void {
  metrics.projectorRecords.inc({ outcome: 'applied' }, outcome.applied);
  metrics.projectorRecords.inc({ outcome: 'duplicate' }, outcome.duplicates);
  metrics.projectorRecords.inc({ outcome: 'skipped' }, outcome.skipped);
  metrics.projectorRecords.inc({ outcome: 'dead_lettered' }, outcome.deadLettered);
  metrics.projectorRecords.inc({ outcome: 'missing' }, outcome.missing);
  metrics.deadLetters.inc({ source: 'projector' }, outcome.deadLettered);
  for (const record of records.slice(outcome.skipped)) metrics.projectorFreshness.observe(Math.max(0, now.getTime() - record.timestamp) / 1000);
}
