import { sql, type Statements } from '@earshot/db';
import { windowOf, type Paging } from '@earshot/server';

export interface AgentRow {
  id: string;
  calls: number;
  last_call_at: Date | null;
  version: string | null;
  deployed_at: Date | null;
}

/**
 * Every agent the tenant's calls or deployments name, by id, with its call
 * count, last call and latest deployed version: agents are not registered
 * anywhere, they exist by being named.
 */
export async function agentRows(tx: Statements, paging: Paging): Promise<AgentRow[]> {
  const after = (column: string) => (paging.after ? sql`${sql.ident(column)} > ${paging.after.id}` : sql`true`);
  // The latest deployment's tie-break names deployments.id: a bare `id` is the output column (the agent), leaving a tie to chance.
  return (await tx.query(sql`
    with called as (
      select agent_id as id, count(*)::int as calls, max(started_at) as last_call_at from calls where ${after('agent_id')} group by agent_id
    ), deployed as (
      select distinct on (agent) agent as id, version, deployed_at from deployments where ${after('agent')}
       order by agent, deployed_at desc, deployments.id desc
    )
    select coalesce(c.id, d.id) as id, coalesce(c.calls, 0) as calls, c.last_call_at, d.version, d.deployed_at
      from called c full join deployed d on d.id = c.id
     order by 1 ${windowOf(paging)}`)) as AgentRow[];
}
