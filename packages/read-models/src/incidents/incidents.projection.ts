import type { DocumentProjection } from '../projection';
import { earliest, latest, maxTime, minTime, sortKeys, stamped, type Register } from '../registers';

/** Per field, the latest event (by stamp) that set it: an update's null fields leave the field as it was. */
interface IncidentFacts {
  id: string;
  createdAt: string | null;
  updatedAt: string | null;
  title: Register<string> | null;
  severity: Register<string> | null;
  status: Register<string> | null;
  description: Register<string> | null;
  affectedAgents: Register<string[]> | null;
  affectedCalls: Register<string[]> | null;
  startedAt: Register<string> | null;
  openedBy: Register<string> | null;
  resolvedAt: Register<string> | null;
  /** Notes by stamp: a set, so a repeated update adds its note once. */
  notes: Record<string, { at: string; note: string; by: string | null }>;
}

export const incidents: DocumentProjection<IncidentFacts> = {
  kind: 'document',
  name: 'incidents',
  version: 1,
  table: 'incidents',
  key: ['id'],
  handles: ['incident.created', 'incident.updated'],
  facts({ event, stamp }) {
    const at = event.occurred_at;
    if (event.type === 'incident.created') {
      const d = event.data;
      return {
        key: { id: d.incident_id },
        facts: {
          id: d.incident_id,
          createdAt: at,
          updatedAt: at,
          title: stamped(stamp, d.title),
          severity: stamped(stamp, d.severity),
          status: stamped(stamp, d.status),
          description: stamped(stamp, d.description),
          affectedAgents: stamped(stamp, d.affected_agents),
          affectedCalls: stamped(stamp, d.affected_calls),
          // The creation's start is the first word on it; a later update cannot move it.
          startedAt: stamped(stamp, d.started_at ?? at),
          openedBy: stamped(stamp, d.opened_by),
          resolvedAt: null,
          notes: {},
        },
      };
    }
    if (event.type === 'incident.updated') {
      const d = event.data;
      return {
        key: { id: d.incident_id },
        facts: {
          id: d.incident_id,
          createdAt: null,
          updatedAt: at,
          title: stamped(stamp, d.title),
          severity: stamped(stamp, d.severity),
          status: stamped(stamp, d.status),
          description: stamped(stamp, d.description),
          affectedAgents: stamped(stamp, d.affected_agents),
          affectedCalls: stamped(stamp, d.affected_calls),
          startedAt: null,
          openedBy: null,
          resolvedAt: stamped(stamp, d.resolved_at ?? (d.status === 'resolved' ? at : null)),
          notes: d.note === null ? {} : { [stamp]: { at, note: d.note, by: d.updated_by } },
        },
      };
    }
    return null;
  },
  merge: (a, b) => ({
    id: a.id,
    createdAt: minTime(a.createdAt, b.createdAt),
    updatedAt: maxTime(a.updatedAt, b.updatedAt),
    title: latest(a.title, b.title),
    severity: latest(a.severity, b.severity),
    status: latest(a.status, b.status),
    description: latest(a.description, b.description),
    affectedAgents: latest(a.affectedAgents, b.affectedAgents),
    affectedCalls: latest(a.affectedCalls, b.affectedCalls),
    startedAt: earliest(a.startedAt, b.startedAt),
    openedBy: earliest(a.openedBy, b.openedBy),
    resolvedAt: latest(a.resolvedAt, b.resolvedAt),
    notes: sortKeys({ ...a.notes, ...b.notes }),
  }),
  row: (f) => {
    const status = f.status?.value ?? 'open';
    return {
      title: f.title?.value ?? '',
      severity: f.severity?.value ?? 'medium',
      status,
      description: f.description?.value ?? null,
      affected_agents: f.affectedAgents?.value ?? [],
      affected_calls: f.affectedCalls?.value ?? [],
      started_at: f.startedAt?.value ?? f.createdAt ?? f.updatedAt,
      opened_by: f.openedBy?.value ?? null,
      resolved_at: status === 'resolved' ? (f.resolvedAt?.value ?? f.updatedAt) : null,
      created_at: f.createdAt ?? f.updatedAt,
      updated_at: f.updatedAt,
      notes: Object.values(f.notes),
    };
  },
};
