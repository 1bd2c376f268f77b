export { auditModule, AUDIT_MIGRATIONS, type AuditOptions } from './audit';
export { AUDITED_TOPICS, startAuditConsumer, type AuditConsumerOptions } from './audit-consumer';
export type { AuditBatchOutcome } from './audit-store';
export { DEAD_LETTER_STATUSES, DeadLetterRecordSchema, DeliveryRecordSchema, type DeadLetterRecord, type DeliveryRecord } from './audit-records';
