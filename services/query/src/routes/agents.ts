import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AgentListQuerySchema, AgentListSchema, type CursorKinds } from '@earshot/contracts';
import type { TenantReads } from '@earshot/db';
import { agentRows } from '@earshot/read-models';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

const CURSOR: CursorKinds = { value: 'none', id: 'text' };

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
      const rows = await readAs(reads, request, (tx) => agentRows(tx, paging));
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
