import { nameUuid } from '@earshot/events';
import type { LogRecord, OutgoingRecord } from '@earshot/log';
import { deadLettersTopic } from '@earshot/topics';

const DEAD_LETTER_NAMESPACE = 'b0f3e1a4-5c6d-4e7f-8a9b-0c1d2e3f4a5b';

/**
 * The dead letter of a record the projector gave up on. Its id comes from the
 * record's position, so if a crash makes the projector send it twice, both
 * copies carry the same id and the audit store keeps one.
 */
export function deadLetterOf(record: LogRecord, reason: string, now: Date): OutgoingRecord {
  const tenant = record.headers.tenant ?? null;
  return deadLettersTopic.record({
    id: nameUuid(`${record.topic}:${record.partition}:${record.offset}`, DEAD_LETTER_NAMESPACE),
    tenant,
    provider: null,
    received_at: now.toISOString(),
    source: 'projector',
    reason,
    fields: [],
    body: new Uint8Array(record.value),
    event_type: record.headers.type ?? null,
    idempotency_key: record.headers['idempotency-key'] ?? null,
    topic: record.topic,
    partition: record.partition,
    offset: Number(record.offset),
    // Not sealed again: the record's personal fields are sealed in themselves, each naming its key (sealed:v1:<key id>:…).
    sealed_with: null,
  });
}
