import { sql, type Statements } from '@earshot/db';
import type { Sketch } from '@earshot/metrics';

/** The agent's sketches of one metric over the minutes in [from, to), merged. */
export async function agentSketch(tx: Statements, agent: string, metric: string, window: { from: Date; to: Date }): Promise<Sketch> {
  const rows = (await tx.query(sql`
    select b.key, sum(b.value::bigint)::float8 as n from metric_rollups r, jsonb_each_text(r.sketch) b
     where r.metric = ${metric} and r.agent_id = ${agent} and r.minute >= ${window.from} and r.minute < ${window.to} group by 1`)) as {
    key: string;
    n: number;
  }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.n]));
}
