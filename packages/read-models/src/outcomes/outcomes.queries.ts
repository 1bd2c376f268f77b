import { sql, type Statements } from '@earshot/db';
import { newestFirst, type Paging } from '@earshot/server';

export interface OutcomeRow {
  id: string;
  call_id: string;
  agent: string | null;
  type: string;
  value: string | null;
  source: string | null;
  revenue_usd: number | null;
  recorded_at: Date;
}

/** A page of the tenant's outcomes, newest recorded first (the index's order), `callId` optional. */
export async function outcomeRows(tx: Statements, filter: { callId?: string | undefined }, paging: Paging): Promise<OutcomeRow[]> {
  const keyset = newestFirst('recorded_at', 'id', paging);
  const byCall = filter.callId === undefined ? sql`true` : sql`call_id = ${filter.callId}`;
  return (await tx.query(
    sql`select id, call_id, agent, type, value, source, revenue_usd, recorded_at from outcomes where ${keyset.where} and ${byCall} ${keyset.order} ${keyset.window}`,
  )) as OutcomeRow[];
}

/** The agent's outcomes per type recorded in [from, to), counted before `at` and from it on. */
export async function outcomeCountsAround(
  tx: Statements,
  agent: string,
  at: Date,
  window: { from: Date; to: Date },
): Promise<{ type: string; before: number; after: number }[]> {
  return (await tx.query(sql`
    select type, (count(*) filter (where recorded_at < ${at}))::int as before, (count(*) filter (where recorded_at >= ${at}))::int as after
      from outcomes where agent = ${agent} and recorded_at >= ${window.from} and recorded_at < ${window.to} group by type order by type`)) as {
    type: string;
    before: number;
    after: number;
  }[];
}
