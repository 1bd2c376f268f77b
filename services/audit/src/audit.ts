import type { FastifyInstance } from 'fastify';
import type { MigrationSet } from '@earshot/db';
import { ApiKeyCache, loadMasterKey, SecretBox } from '@earshot/auth';
import { openIntake } from '@earshot/gateway';
import { registerAuthHook, type Module, type Runtime } from '@earshot/server';
import { startAuditConsumer } from './audit-consumer';
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
    dependsOn: ['database', 'log', 'http'],
    start: async () => {
      const db = runtime.database();
      const log = runtime.log();
      const shared = openIntake({ db, log, now: runtime.now });
      await runtime.http().register(async (audit: FastifyInstance) => {
        // Admin routes only, so the key cache is never consulted; the hook needs one all the same.
        const keys = new ApiKeyCache(db, new SecretBox(loadMasterKey(runtime.config)), 10_000);
        registerAuthHook(audit, {
          keys,
          adminToken: runtime.config.EARSHOT_ADMIN_TOKEN,
          now: runtime.now,
          environments: runtime.config.EARSHOT_KEY_ENVIRONMENTS,
        });
        registerDeliveryRoutes(audit, db);
        registerDeadLetterRoutes(audit, db, shared.intake, runtime.now);
        audit.addHook('onClose', () => shared.close());
      });
      const consumer = await startAuditConsumer({ db, log, group: options.group, onBatch: options.onBatch });
      return { stop: () => consumer.stop() };
    },
  };
}
