import { CURRENT_EVENT_VERSION, StoredEventSchema, type StoredEvent } from '@earshot/contracts';
import { inTenant, sql, type ConnectionPool } from '@earshot/db';
import type { DataKey } from '@earshot/events';
import type { EventLog } from '@earshot/log';
import { silentCalls, type SilentCall } from '@earshot/read-models';
import { UNFENCED, type Fence } from '@earshot/server';
import { eventsTopic } from '@earshot/topics';
import { allTenantSettings } from './data-settings';

/** Calls one tenant's round declares at most, so a backlog (a provider outage) is worked off over several rounds. */
const PER_TENANT_ROUND = 500;

export interface AbandonOptions {
  db: ConnectionPool;
  log: EventLog;
  now: Date;
  /** The deployment's EARSHOT_ABANDON_AFTER, for tenants without a setting of their own. */
  defaultAfterMs: number;
  /**
   * The calls' data keys (DataKeys of @earshot/auth) when events are sealed: a call.abandoned is sealed with its call's key like the
   * call's other events, so once the call is erased a replay passes it over rather than bringing the call back.
   */
  sealing?: { forCalls(tenantId: string, callIds: readonly string[]): Promise<Map<string, DataKey>> };
}

/**
 * Earshot's call.abandoned for a call silent since `silentSince`. Everything
 * in it follows from the call and the silence, so a repeated round (a new
 * lease holder, a crash before the next one) appends the same event under
 * the same key, which the projector applies once.
 */
function abandonedCallEvent(tenantId: string, call: SilentCall, afterMs: number, receivedAt: Date): StoredEvent {
  const silentSince = call.last_event_at.toISOString();
  return StoredEventSchema.parse({
    type: 'call.abandoned',
    version: CURRENT_EVENT_VERSION,
    idempotency_key: `earshot:call.abandoned:${call.id}:${silentSince}`,
    occurred_at: new Date(call.last_event_at.getTime() + afterMs).toISOString(),
    received_at: receivedAt.toISOString(),
    tenant: tenantId,
    provider: call.provider,
    call: { provider_call_id: call.provider_call_id, agent_id: call.agent_id },
    data: { silent_since: silentSince, abandon_after_ms: afterMs },
  });
}

/**
 * One round: every call still in progress whose last event happened longer
 * ago than its tenant's abandon-after silence gets a call.abandoned in the
 * log, so the read models (and any replay) read it `abandoned`. A call whose
 * events are only late (the projector behind) comes back to life when they
 * are applied, since they happened after the silence began.
 */
export async function abandonSilentCalls({ db, log, now, defaultAfterMs, sealing }: AbandonOptions, fence: Fence = UNFENCED): Promise<{ abandoned: number }> {
  const own = await allTenantSettings(db);
  const tenants = (await db.query(sql`select id::text as id from tenants order by id`)) as { id: string }[];
  let abandoned = 0;
  for (const { id: tenantId } of tenants) {
    const afterMs = own.get(tenantId)?.abandonAfterMs ?? defaultAfterMs;
    const cutoff = new Date(now.getTime() - afterMs);
    const silent = await inTenant(db, tenantId, (tx) => silentCalls(tx, cutoff, PER_TENANT_ROUND));
    if (silent.length === 0) continue;
    const events = silent.map((call) => abandonedCallEvent(tenantId, call, afterMs, now));
    await fence.confirm();
    const keys = sealing
      ? await sealing.forCalls(
          tenantId,
          silent.map((call) => call.id),
        )
      : new Map<string, DataKey>();
    await log.append(
      events.map((event, i) => {
        const sealWith = keys.get(silent[i]?.id ?? '');
        return eventsTopic.record(event, { recordId: event.idempotency_key, ...(sealWith ? { sealWith } : {}) });
      }),
    );
    abandoned += events.length;
  }
  return { abandoned };
}
