import { sql, type Statements } from '@earshot/db';
import { newestFirst, type Paging } from '@earshot/server';

export interface IncidentRow {
  id: string;
  title: string;
  severity: string;
  status: string;
  description: string | null;
  affected_agents: string[];
  affected_calls: string[];
  started_at: Date;
  opened_by: string | null;
  resolved_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  notes: { at: string; note: string; by: string | null }[];
}

/** A page of the tenant's incidents, newest started first (the index's order), `status` optional. */
export async function incidentRows(tx: Statements, filter: { status?: string | undefined }, paging: Paging): Promise<IncidentRow[]> {
  const keyset = newestFirst('started_at', 'id', paging);
  const byStatus = filter.status === undefined ? sql`true` : sql`status = ${filter.status}`;
  return (await tx.query(sql`
    select id, title, severity, status, description, affected_agents, affected_calls, started_at, opened_by, resolved_at, created_at, updated_at, notes
      from incidents where ${keyset.where} and ${byStatus} ${keyset.order} ${keyset.window}`)) as IncidentRow[];
}

/** The incident's status, or undefined when the tenant has none of that id (or it is not projected yet). */
export async function incidentStatus(tx: Statements, id: string): Promise<string | undefined> {
  const [row] = (await tx.query(sql`select status from incidents where id = ${id}`)) as { status: string }[];
  return row?.status;
}
