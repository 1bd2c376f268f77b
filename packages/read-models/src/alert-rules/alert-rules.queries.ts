import type { AlertRule } from '@earshot/contracts';
import { sql, type Statements } from '@earshot/db';
import { windowOf, type Paging } from '@earshot/server';

export interface AlertRuleRow {
  id: string;
  name: string | null;
  metric: string;
  agent_id: string | null;
  comparison: AlertRule['comparison'];
  threshold: number;
  window_ms: string;
  for_ms: string;
  severity: AlertRule['severity'];
  enabled: boolean;
  description: string | null;
  changed_by: string | null;
  changed_at: Date;
}

const COLUMNS = sql`id, name, metric, agent_id, comparison, threshold, window_ms, for_ms, severity, enabled, description, changed_by, changed_at`;

/** The tenant's live (not deleted) rules by id, a page at a time. */
export async function alertRuleRows(tx: Statements, paging: Paging): Promise<AlertRuleRow[]> {
  const after = paging.after ? sql`id > ${paging.after.id}` : sql`true`;
  return (await tx.query(sql`select ${COLUMNS} from alert_rules where not deleted and ${after} order by id ${windowOf(paging)}`)) as AlertRuleRow[];
}

/** The tenant's live (not deleted) rule, or undefined. */
export async function alertRuleRow(tx: Statements, id: string): Promise<AlertRuleRow | undefined> {
  const [row] = (await tx.query(sql`select ${COLUMNS} from alert_rules where id = ${id} and not deleted`)) as AlertRuleRow[];
  return row;
}

/** The rules the evaluator runs: live and enabled, in any order. */
export async function enabledAlertRuleRows(tx: Statements): Promise<AlertRuleRow[]> {
  return (await tx.query(sql`select ${COLUMNS} from alert_rules where not deleted and enabled`)) as AlertRuleRow[];
}
