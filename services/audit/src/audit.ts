import type { FastifyInstance } from 'fastify';
import { DataKeys } from '@earshot/auth';
import type { MigrationSet } from '@earshot/db';
import { Intake } from '@earshot/intake';
import { lagFromPositions, type Module, type Runtime } from '@earshot/server';
import { AUDITED_TOPICS, startAuditConsumer } from './audit-consumer';
import type { AuditBatchOutcome } from './audit-store';
import { registerDeadLetterRoutes } from './routes/dead-letters';
import { registerDeliveryRoutes } from './routes/deliveries';

/** The delivery audit log, the dead-letter store and the audit consumer's positions. */
export const AUDIT_MIGRATIONS: readonly MigrationSet[] = [{ module: 'audit', directory: new URL('../migrations/', import.meta.url) }];

export interface AuditOptions {
  /** Consumer group: audit processes sharing it share the partitions. */
  group?: string;
  onBatch?: (outcome: AuditBatchOutcome) => void;
}

/**
 * The audit service: consumes earshot.deliveries and earshot.dlq into the
 * delivery audit log and the dead-letter store, and serves them to the
 * operator, who can replay a dead letter once its cause is fixed.
 */
export function auditModule(runtime: Runtime, options: AuditOptions = {}): Module {
  return {
    name: 'audit',
    dependsOn: ['database', 'log', 'http', 'access'],
    start: async () => {
      const db = runtime.database();
      const log = runtime.log();
      // The gateway's intake, in the same ingest key space, so a replayed dead letter meets the keys the gateway saw.
      const { idempotency, secrets } = runtime.access();
      // Sealed dead letters are opened whether or not sealing is on now: it may have been when they were written.
      const dataKeys = new DataKeys(db, secrets);
      const intake = new Intake({
        log,
        idempotency: idempotency('ingest'),
        appendTimeoutMs: 5_000,
        duplicateWaitMs: 10_000,
        sealing: runtime.config.EARSHOT_SEAL_EVENTS ? dataKeys : undefined,
        logger: runtime.logger,
        metrics: runtime.metrics,
      });
      await runtime.http().register(async (audit: FastifyInstance) => {
        registerDeliveryRoutes(audit, db);
        registerDeadLetterRoutes(audit, db, (keyIds) => dataKeys.lookup(keyIds), intake, runtime.now);
      });
      const consumer = await startAuditConsumer({ db, log, group: options.group, onBatch: options.onBatch, logger: runtime.logger });
      const unwatch = runtime.metrics.watchLag('audit', lagFromPositions(db, log, 'audit_positions', AUDITED_TOPICS));
      return {
        stop: async () => {
          unwatch();
          await consumer.stop();
        },
      };
    },
  };
}
