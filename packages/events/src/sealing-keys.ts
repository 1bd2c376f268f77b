import type { IncomingEvent, StoredEvent } from '@earshot/contracts';
import { callIdOf } from './call-id';
import type { DataKey } from './field-sealing';

/** Where a writer gets the data keys that seal events' personal fields: DataKeys of @earshot/auth, or its cache. */
export interface EventSealing {
  forTenant(tenantId: string): Promise<DataKey>;
  forCalls(tenantId: string, callIds: readonly string[]): Promise<Map<string, DataKey>>;
}

/**
 * The call whose key seals an event, by the id the API names it, so erasing
 * the call finds the key. An outcome's is the call it names, whose erasure
 * deletes its row (ids are lowercase, as erasure looks them up); any other
 * event's, the call it came in on. Null for an event about no call.
 */
function sealingCallOf(sender: { tenantId: string; provider: string }, event: IncomingEvent | StoredEvent): string | null {
  if (event.type === 'outcome.recorded') return event.data.call_id.toLowerCase();
  return event.call ? callIdOf(sender.tenantId, sender.provider, event.call.provider_call_id) : null;
}

/**
 * The key each event is sealed with, in order: its call's (sealingCallOf),
 * or the tenant's for an event about no call. A few round trips per batch,
 * whatever its size.
 */
export async function sealingKeys(
  sealing: EventSealing,
  sender: { tenantId: string; provider: string },
  events: readonly (IncomingEvent | StoredEvent)[],
): Promise<(DataKey | undefined)[]> {
  const callIds = events.map((e) => sealingCallOf(sender, e));
  const byCall = await sealing.forCalls(
    sender.tenantId,
    callIds.filter((id): id is string => id !== null),
  );
  const tenantKey = callIds.includes(null) ? await sealing.forTenant(sender.tenantId) : undefined;
  return callIds.map((id) => (id === null ? tenantKey : byCall.get(id)));
}
