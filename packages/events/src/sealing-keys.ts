import { storedId, type StoredEvent } from '@earshot/contracts';
import { callIdOf } from './call-id';
import type { DataKey } from './field-sealing';

/** Where a writer gets the data keys that seal events' personal fields: DataKeys of @earshot/auth, or its cache. */
export interface EventSealing {
  forTenant(tenantId: string): Promise<DataKey>;
  forCalls(tenantId: string, callIds: readonly string[]): Promise<Map<string, DataKey>>;
}

const fieldOf = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;

/** An id as the contracts take one (storedId): a refused envelope's may be anything, and names no call unless it is one. */
function idOf(value: unknown): string | null {
  const id = storedId.safeParse(value);
  return id.success ? id.data : null;
}

/**
 * The call whose key seals what a sender sent, by the id the API names it, so
 * erasing the call finds the key. An outcome's is the call it names, whose
 * erasure deletes its row (ids are lowercase, as erasure looks them up); any
 * other event's, the call it came in on. Null for an event about no call.
 * It reads any value, not only a valid event: an envelope refused into a dead
 * letter is sealed by the same rule, so the call's erasure reaches it too.
 */
function sealingCallOf(sender: { tenantId: string; provider: string }, sent: unknown): string | null {
  if (fieldOf(sent, 'type') === 'outcome.recorded') return idOf(fieldOf(fieldOf(sent, 'data'), 'call_id'))?.toLowerCase() ?? null;
  const providerCallId = idOf(fieldOf(fieldOf(sent, 'call'), 'provider_call_id'));
  return providerCallId === null ? null : callIdOf(sender.tenantId, sender.provider, providerCallId);
}

/** The call a stored event is about, as its erasure names it (sealingCallOf): where a call's erasure reaches an event appended in the clear. */
export function erasableCallOf(event: StoredEvent): string | null {
  return sealingCallOf({ tenantId: event.tenant, provider: event.provider }, event);
}

/**
 * The key each of what a sender sent is sealed with, in order: valid events
 * (their personal fields) or refused envelopes (their dead letters' bodies),
 * each with its call's key (sealingCallOf), or the tenant's when it names no
 * call. A few round trips per batch, whatever its size.
 */
export async function sealingKeys(
  sealing: EventSealing,
  sender: { tenantId: string; provider: string },
  sent: readonly unknown[],
): Promise<(DataKey | undefined)[]> {
  const callIds = sent.map((s) => sealingCallOf(sender, s));
  const named = callIds.filter((id): id is string => id !== null);
  // Asked only when some name a call: a body refused whole names none, and is sealed in one round trip.
  const byCall = named.length > 0 ? await sealing.forCalls(sender.tenantId, named) : new Map<string, DataKey>();
  const tenantKey = callIds.includes(null) ? await sealing.forTenant(sender.tenantId) : undefined;
  return callIds.map((id) => (id === null ? tenantKey : byCall.get(id)));
}
