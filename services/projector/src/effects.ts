import type { EventType } from '@earshot/contracts';
import {
  deliveryUsage,
  READ_MODELS,
  usageMeters,
  type CounterProjection,
  type DocumentProjection,
  type ProjectedDelivery,
  type ProjectedEvent,
  type Projection,
  type RegisterProjection,
  type Row,
} from '@earshot/read-models';

/** What one event does to one read model, worked out before any database is touched. */
export type Effect = { projection: DocumentProjection<unknown>; key: Row; facts: unknown } | { projection: RegisterProjection | CounterProjection; row: Row };

/** An event reduced to its tenant, its identity for deduplication, and its effects. */
export interface Derived {
  tenantId: string;
  /** Same tenant and key: the same event, applied once. */
  dedupeKey: string;
  effects: Effect[];
}

const byType = new Map<EventType, Projection[]>();
for (const projection of READ_MODELS) {
  for (const type of projection.handles) byType.set(type, [...(byType.get(type) ?? []), projection]);
}

/** Pure: runs every projection that handles the event. */
export function deriveEvent(projected: ProjectedEvent): Derived {
  const effects: Effect[] = [];
  for (const projection of byType.get(projected.event.type) ?? []) {
    if (projection.kind === 'document') {
      const found = projection.facts(projected);
      if (found) effects.push({ projection, key: found.key, facts: found.facts });
    } else {
      for (const row of projection.rows(projected)) effects.push({ projection, row });
    }
  }
  return { tenantId: projected.tenantId, dedupeKey: projected.event.idempotency_key, effects };
}

/** Deliveries count as API requests in the usage meters; their ids are namespaced apart from event keys. */
export function deriveDelivery(projected: ProjectedDelivery): Derived {
  return {
    tenantId: projected.tenantId,
    dedupeKey: `delivery:${projected.delivery.id}`,
    effects: [{ projection: usageMeters, row: deliveryUsage(projected) }],
  };
}
