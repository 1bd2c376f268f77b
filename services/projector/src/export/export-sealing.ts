import { EVENT_TYPES } from '@earshot/contracts';
import { erasableCall, erasedInTheClear, EVENT_HEADERS, SEALED_PREFIX, sealedFieldsOf, type ErasedCalls, type KeyLookup } from '@earshot/events';
import { TOPICS, type LogRecord, type TopicName } from '@earshot/log';
import { eventsTopic } from '@earshot/topics';

/**
 * One tenant's authority over an export: only its records are written, and
 * its sealed fields are opened with its own data keys (DataKeys.lookup with
 * the tenant), never another tenant's. Its erased calls' events appended in
 * the clear are not written (DataKeys.erasedCalls), as no key of theirs is
 * left to withhold them. Without it, an export holds every tenant's records
 * with their sealed fields as the log holds them.
 */
export interface ExportAuthority {
  tenantId: string;
  keys: (keyIds: readonly string[]) => Promise<KeyLookup>;
  erasedCalls: ErasedCalls;
}

const NOTHING: KeyLookup = () => undefined;

/** The records an export writes: all of them, or those of the tenant whose authority it has. */
export function exportedBy(authority: ExportAuthority | undefined): (record: LogRecord) => boolean {
  return (record) => authority === undefined || record.headers[EVENT_HEADERS.tenant] === authority.tenantId;
}

/** The keys that open a batch's sealed fields: none without a tenant's authority, else that tenant's keys the batch names. */
export async function batchKeys(authority: ExportAuthority | undefined, batch: readonly LogRecord[]): Promise<KeyLookup> {
  const named = batch.flatMap((r) => r.headers[EVENT_HEADERS.sealedWith] ?? []);
  return authority === undefined || named.length === 0 ? NOTHING : authority.keys(named);
}

/**
 * The records of a batch an export writes: with a tenant's authority, not
 * the events in the clear of calls erased since the log stored them (the
 * projector's rule). Only events in the clear are decoded for their call,
 * once more than writing them takes, and only they make it ask.
 */
export async function notErased(authority: ExportAuthority | undefined, batch: readonly LogRecord[]): Promise<LogRecord[]> {
  const callOf = (record: LogRecord) => (record.topic === TOPICS.events ? erasableCall(record, eventsTopic.read(record)) : null);
  const erased = await erasedInTheClear(batch, callOf, authority?.erasedCalls);
  return batch.filter((record) => !erased(record));
}

/**
 * What an Avro export's header says about sealing (key `earshot.sealed`):
 * the format of a sealed value, the fields each event type may have sealed,
 * and for which tenant, if any, they were opened. NDJSON says it per line.
 */
export function sealingMetadata(topic: TopicName, authority: ExportAuthority | undefined): Record<string, Buffer> {
  if (topic !== TOPICS.events) return {};
  const note = {
    format: `${SEALED_PREFIX}<key id>:<base64url of nonce, tag and AES-256-GCM ciphertext>`,
    openedForTenant: authority?.tenantId ?? null,
    fields: Object.fromEntries(EVENT_TYPES.map((type) => [type, sealedFieldsOf(type)])),
  };
  return { 'earshot.sealed': Buffer.from(JSON.stringify(note)) };
}
