import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcceptedWriteSchema,
  IdempotencyHeadersSchema,
  IncidentInputSchema,
  IncidentListQuerySchema,
  IncidentListSchema,
  type IncidentSchema,
  type CursorKinds,
} from '@earshot/contracts';
import type { Statements, TenantReads } from '@earshot/db';
import { incidentRows, type IncidentRow } from '@earshot/read-models';
import { iso, pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import type { TenantWrites } from '../tenant-writes';

/** Newest first by time, then id, as the read model's index orders it. */
const CURSOR: CursorKinds = { value: 'time', id: 'text' };

function incidentOf(row: IncidentRow): z.infer<typeof IncidentSchema> {
  return {
    id: row.id,
    title: row.title,
    severity: row.severity,
    status: row.status,
    description: row.description,
    affectedAgents: row.affected_agents,
    affectedCalls: row.affected_calls,
    startedAt: iso(row.started_at),
    openedBy: row.opened_by,
    resolvedAt: iso(row.resolved_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    notes: row.notes,
  };
}

/** A page of the tenant's incidents, newest first: what GET /incidents answers and GraphQL's `incidents` resolves to. */
export async function readIncidentPage(tx: Statements, query: z.infer<typeof IncidentListQuerySchema>): Promise<z.infer<typeof IncidentListSchema>> {
  const paging = pagingOf(query, CURSOR);
  const rows = await incidentRows(tx, { status: query.status }, paging);
  return pageOf(rows, paging, (r) => ({ v: r.started_at.toISOString(), id: r.id }), incidentOf);
}

/** GET /incidents (newest first, `status` filter) and POST /incidents (an incident.created event). */
export function registerIncidentRoutes(app: FastifyInstance, reads: TenantReads, writes: TenantWrites): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/incidents',
    {
      schema: { querystring: IncidentListQuerySchema, response: { 200: IncidentListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /incidents') },
    },
    async (request) => readAs(reads, request, (tx) => readIncidentPage(tx, request.query)),
  );

  routes.post(
    '/incidents',
    {
      schema: { headers: IdempotencyHeadersSchema, body: IncidentInputSchema, response: { 201: AcceptedWriteSchema, ...ROUTE_ERRORS.write } },
      config: { policy: policyOf('POST /incidents') },
    },
    async (request, reply) => {
      const input = request.body;
      const answer = await writes.write(request, {
        type: 'incident.created',
        id: input.id,
        data: (id) => ({
          incident_id: id,
          title: input.title,
          severity: input.severity,
          status: input.status,
          description: input.description ?? null,
          affected_agents: input.affectedAgents,
          affected_calls: input.affectedCalls,
          started_at: input.startedAt ?? null,
          opened_by: input.openedBy ?? request.caller?.keyName ?? null,
        }),
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(answer.body);
    },
  );
}
