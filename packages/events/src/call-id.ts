import { nameUuid } from './name-uuid';

/** Fixed namespace of call ids: the same (tenant, provider, provider call id) gives the same id in every process and every replay. */
const CALL_ID_NAMESPACE = '3c0f6a52-8a3e-4d0b-9f51-2f6f3f0c7a11';

/** The Call resource's id, derived from what identifies a call in the events: its tenant, provider and provider call id. */
export function callIdOf(tenantId: string, provider: string, providerCallId: string): string {
  const name = `${tenantId}\n${provider}\n${providerCallId}`;
  let id = recentCallIds.get(name);
  if (id === undefined) {
    // A call's events come in runs, so a small cache spares most of the SHA-1s.
    if (recentCallIds.size >= 10_000) recentCallIds.clear();
    id = nameUuid(name, CALL_ID_NAMESPACE);
    recentCallIds.set(name, id);
  }
  return id;
}

const recentCallIds = new Map<string, string>();
