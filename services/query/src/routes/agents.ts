import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AgentListQuerySchema, AgentListSchema, type CursorKinds } from '@earshot/contracts';
import { sql, type TenantReads } from '@earshot/db';
import { pageOf, pagingOf, windowOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

const CURSOR: CursorKinds = { value: 'none', id: 'text' };

interface AgentRow {
  id: string;
  calls: number;
  last_call_at: Date | null;
  version: string | null;
  deployed_at: Date | null;
}

/**
 * GET /agents: every agent the tenant's calls or deployments name, by id,
 * with its call count, last call and latest deployed version. Agents are not
 * registered anywhere; they exist by being named.
 */
export function registerAgentRoutes(app: FastifyInstance, reads: TenantReads): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/agents',
    {
      schema: { querystring: AgentListQuerySchema, response: { 200: AgentListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /agents') },
    },
    async (request) => {
      const paging = pagingOf(request.query, CURSOR);
      const after = (column: string) => (paging.after ? sql`${sql.ident(column)} > ${paging.after.id}` : sql`true`);
      const rows = await readAs(
        reads,
        request,
        (tx) =>
          tx.query(sql`
            with called as (
              select agent_id as id, count(*)::int as calls, max(started_at) as last_call_at from calls where ${after('agent_id')} group by agent_id
            ), deployed as (
              select distinct on (agent) agent as id, version, deployed_at from deployments where ${after('agent')} order by agent, deployed_at desc, id desc
            )
            select coalesce(c.id, d.id) as id, coalesce(c.calls, 0) as calls, c.last_call_at, d.version, d.deployed_at
              from called c full join deployed d on d.id = c.id
             order by 1 ${windowOf(paging)}`) as Promise<AgentRow[]>,
      );
      return pageOf(
        rows,
        paging,
        (r) => ({ v: r.id, id: r.id }),
        (r) => ({
          id: r.id,
          calls: r.calls,
          lastCallAt: r.last_call_at?.toISOString() ?? null,
          version: r.version,
          deployedAt: r.deployed_at?.toISOString() ?? null,
        }),
      );
    },
  );
}
