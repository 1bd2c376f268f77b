import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcceptedWriteSchema,
  IdempotencyHeadersSchema,
  OutcomeInputSchema,
  OutcomeListQuerySchema,
  OutcomeListSchema,
  type Outcome,
  type CursorKinds,
} from '@earshot/contracts';
import type { Statements, TenantReads } from '@earshot/db';
import { outcomeRows, type OutcomeRow } from '@earshot/read-models';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import type { TenantWrites } from '../tenant-writes';

/** What GET /outcomes names as its `source`: the projector's outcomes read model in Postgres. */
const OUTCOME_SOURCE = 'postgres:outcomes';
/** Newest first by time, then id, as the read model's index orders it. */
const CURSOR: CursorKinds = { value: 'time', id: 'text' };

function outcomeOf(row: OutcomeRow): Outcome {
  return {
    id: row.id,
    callId: row.call_id,
    agent: row.agent,
    type: row.type,
    value: row.value,
    source: row.source,
    revenueUsd: row.revenue_usd,
    recordedAt: row.recorded_at.toISOString(),
  };
}

/** A page of the tenant's outcomes, newest first: what GET /outcomes answers and GraphQL's `outcomes` resolves to. */
export async function readOutcomePage(tx: Statements, query: z.infer<typeof OutcomeListQuerySchema>): Promise<z.infer<typeof OutcomeListSchema>> {
  const paging = pagingOf(query, CURSOR);
  const rows = await outcomeRows(tx, { callId: query.callId }, paging);
  return { ...pageOf(rows, paging, (r) => ({ v: r.recorded_at.toISOString(), id: r.id }), outcomeOf), source: OUTCOME_SOURCE };
}

/** GET /outcomes (newest first, `callId` filter) and POST /outcomes (an upsert by id, through the log). */
export function registerOutcomeRoutes(app: FastifyInstance, reads: TenantReads, writes: TenantWrites): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/outcomes',
    {
      schema: { querystring: OutcomeListQuerySchema, response: { 200: OutcomeListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /outcomes') },
    },
    async (request) => readAs(reads, request, (tx) => readOutcomePage(tx, request.query)),
  );

  routes.post(
    '/outcomes',
    {
      schema: { headers: IdempotencyHeadersSchema, body: OutcomeInputSchema, response: { 201: AcceptedWriteSchema, ...ROUTE_ERRORS.write } },
      config: { policy: policyOf('POST /outcomes') },
    },
    async (request, reply) => {
      const input = request.body;
      const answer = await writes.write(request, {
        type: 'outcome.recorded',
        id: input.id,
        data: (id) => ({
          outcome_id: id,
          call_id: input.callId,
          agent: input.agent ?? null,
          outcome_type: input.type,
          value: input.value ?? null,
          source: input.source ?? null,
          revenue_usd: input.revenueUsd ?? null,
        }),
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(answer.body);
    },
  );
}
