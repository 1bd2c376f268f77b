import type { z } from 'zod';
import type { AlertSchema } from '@earshot/contracts';
import { sql, type Statements } from '@earshot/db';
import { newestFirst, type Paging } from '@earshot/server';

type Alert = z.infer<typeof AlertSchema>;

export interface AlertRow {
  id: string;
  rule_id: string;
  rule_name: string | null;
  metric: string;
  comparison: Alert['comparison'];
  threshold: number | null;
  value: number | null;
  window_ms: number | null;
  severity: Alert['severity'];
  agent_id: string | null;
  message: string | null;
  status: Alert['status'];
  fired_at: Date;
  resolved_at: Date | null;
  resolved_value: number | null;
  resolution: string | null;
  resolved_by: string | null;
}

/** A page of the tenant's alerts, newest fired first (the index's order), `status` optional. */
export async function alertRows(tx: Statements, filter: { status?: string | undefined }, paging: Paging): Promise<AlertRow[]> {
  const keyset = newestFirst('fired_at', 'id', paging);
  const byStatus = filter.status === undefined ? sql`true` : sql`status = ${filter.status}`;
  return (await tx.query(sql`
    select id, rule_id, rule_name, metric, comparison, threshold, value, window_ms, severity, agent_id, message, status, fired_at, resolved_at,
           resolved_value, resolution, resolved_by
      from alerts where ${keyset.where} and ${byStatus} ${keyset.order} ${keyset.window}`)) as AlertRow[];
}
