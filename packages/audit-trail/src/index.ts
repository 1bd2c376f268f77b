export { recordAudit, type AuditActor, type AuditEntry } from './audit-trail';

/** The audit log's table; applied by every target that writes or reads it (gateway, query). */
export const AUDIT_TRAIL_MIGRATIONS = { module: 'audit-trail', directory: new URL('../migrations/', import.meta.url) } as const;
