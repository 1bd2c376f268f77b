import type { IncomingEvent } from '@earshot/contracts';
import { callIdOf, type DataKey } from '@earshot/events';

/** Where intake gets the data keys that seal events' personal fields: DataKeys of @earshot/auth. */
export interface EventSealing {
  forTenant(tenantId: string): Promise<DataKey>;
  forCalls(tenantId: string, callIds: readonly string[]): Promise<Map<string, DataKey>>;
}

/**
 * The key each event is sealed with, in order: its call's (the call id the
 * API names, so erasing a call finds it), or the tenant's for an event
 * about no call. A few round trips per batch, whatever its size.
 */
export async function sealingKeys(
  sealing: EventSealing,
  sender: { tenantId: string; provider: string },
  events: readonly IncomingEvent[],
): Promise<(DataKey | undefined)[]> {
  const callIds = events.map((e) => (e.call ? callIdOf(sender.tenantId, sender.provider, e.call.provider_call_id) : null));
  const byCall = await sealing.forCalls(
    sender.tenantId,
    callIds.filter((id): id is string => id !== null),
  );
  const tenantKey = callIds.includes(null) ? await sealing.forTenant(sender.tenantId) : undefined;
  return callIds.map((id) => (id === null ? tenantKey : byCall.get(id)));
}
