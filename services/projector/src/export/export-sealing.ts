import { EVENT_TYPES } from '@earshot/contracts';
import { EVENT_HEADERS, SEALED_PREFIX, sealedFieldsOf, type KeyLookup } from '@earshot/events';
import { TOPICS, type LogRecord, type TopicName } from '@earshot/log';

/**
 * One tenant's authority over an export: only its records are written, and
 * its sealed fields are opened with its own data keys (DataKeys.lookup with
 * the tenant), never another tenant's. Without it, an export holds every
 * tenant's records with their sealed fields as the log holds them.
 */
export interface ExportAuthority {
  tenantId: string;
  keys: (keyIds: readonly string[]) => Promise<KeyLookup>;
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
