import type { DeadLetter, Delivery } from '@earshot/contracts';
import { inPlatform, sql, type ConnectionPool, type Queryable } from '@earshot/db';
import type { LogRecord } from '@earshot/log';
import { readRecord } from '@earshot/topics';

export interface AuditBatchOutcome {
  /** Records below the stored position: applied before, re-delivered by the log. */
  skipped: number;
  deliveries: number;
  deadLetters: number;
  /** Records that do not decode: reported, not stored (there is no dead-letter store for the dead-letter store). */
  undecodable: number;
}

type Decoded = { delivery: Delivery } | { deadLetter: DeadLetter } | { undecodable: string };

function decode(record: LogRecord): Decoded {
  try {
    const read = readRecord(record);
    if (read.topic === 'earshot.deliveries') return { delivery: read.payload };
    if (read.topic === 'earshot.dlq') return { deadLetter: read.payload };
    return { undecodable: `the audit service does not read topic ${record.topic}` };
  } catch (error) {
    return { undecodable: error instanceof Error ? error.message : String(error) };
  }
}

const rows = (values: readonly object[]) => sql`${JSON.stringify(values)}::jsonb`;

async function insertDeliveries(tx: Queryable, deliveries: readonly Delivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const values = deliveries.map((d) => ({ ...d, tenant_id: d.tenant }));
  await tx.query(sql`
    insert into deliveries (tenant_id, id, time, provider, event_type, idempotency_key, outcome, http_status, duration_ms, event_id, reason)
    select tenant_id, id, time, provider, event_type, idempotency_key, outcome, http_status, duration_ms, event_id, reason
      from jsonb_populate_recordset(null::deliveries, ${rows(values)})
    on conflict (tenant_id, id) do nothing`);
}

/**
 * A dead letter seen again under its id (a replay that failed again, or the
 * projector re-sending after a crash) keeps its first receipt and takes the
 * newest reason; it is held again whatever it was. A sealed body is stored
 * as it came, sealed, with the id of its key.
 */
async function upsertDeadLetters(tx: Queryable, deadLetters: readonly DeadLetter[]): Promise<void> {
  if (deadLetters.length === 0) return;
  const latest = new Map(deadLetters.map((d) => [d.id, d]));
  const values = [...latest.values()].map((d) => ({ ...d, tenant_id: d.tenant, fields: d.fields, body: `\\x${Buffer.from(d.body).toString('hex')}` }));
  await tx.query(sql`
    insert into dead_letters (id, tenant_id, provider, received_at, source, reason, fields, body, event_type, idempotency_key, topic, partition, "offset", sealed_with)
    select id, tenant_id, provider, received_at, source, reason, fields, body, event_type, idempotency_key, topic, partition, "offset", sealed_with
      from jsonb_populate_recordset(null::dead_letters, ${rows(values)})
    on conflict (id) do update set reason = excluded.reason, fields = excluded.fields, status = 'held', updated_at = now()
     where dead_letters.reason is distinct from excluded.reason or dead_letters.status <> 'held'`);
}

async function claimPosition(tx: Queryable, topic: string, partition: number): Promise<bigint> {
  const [row] = (await tx.query(sql`
    insert into audit_positions (topic, partition, next_offset) values (${topic}, ${partition}, 0)
    on conflict (topic, partition) do update set next_offset = audit_positions.next_offset
    returning next_offset::text as next_offset`)) as { next_offset: string }[];
  return BigInt(row?.next_offset ?? '0');
}

/**
 * Stores one partition's batch and its next offset in one transaction: the
 * row lock on the position makes two consumers handed the same partition
 * apply it one after the other, the second skipping what the first stored.
 */
export async function storeAuditBatch(db: ConnectionPool, records: readonly LogRecord[], report: (line: string) => void): Promise<AuditBatchOutcome> {
  const first = records[0];
  const last = records[records.length - 1];
  if (!first || !last) return { skipped: 0, deliveries: 0, deadLetters: 0, undecodable: 0 };
  // A batch holds every tenant's rows: the platform role's path through forced row-level security.
  return inPlatform(db, async (tx) => {
    const next = await claimPosition(tx, first.topic, first.partition);
    const fresh = records.filter((r) => BigInt(r.offset) >= next);
    const decoded = fresh.map((record) => ({ record, decoded: decode(record) }));
    const deliveries = decoded.flatMap(({ decoded: d }) => ('delivery' in d ? [d.delivery] : []));
    const deadLetters = decoded.flatMap(({ decoded: d }) => ('deadLetter' in d ? [d.deadLetter] : []));
    for (const { record, decoded: d } of decoded) {
      if ('undecodable' in d) report(`${record.topic} ${record.partition}:${record.offset} does not decode and is not stored: ${d.undecodable}`);
    }
    await insertDeliveries(tx, deliveries);
    await upsertDeadLetters(tx, deadLetters);
    await tx.query(
      sql`update audit_positions set next_offset = ${(BigInt(last.offset) + 1n).toString()}::bigint, updated_at = now() where topic = ${first.topic} and partition = ${first.partition}`,
    );
    return {
      skipped: records.length - fresh.length,
      deliveries: deliveries.length,
      deadLetters: deadLetters.length,
      undecodable: fresh.length - deliveries.length - deadLetters.length,
    };
  });
}
