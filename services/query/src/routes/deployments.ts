import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcceptedWriteSchema,
  ApiError,
  DeploymentAnswerSchema,
  DeploymentInputSchema,
  DeploymentListQuerySchema,
  DeploymentListSchema,
  ErrorBodySchema,
  IdempotencyHeadersSchema,
  RecordIdParamsSchema,
  type DeploymentSchema,
  type CursorKinds,
} from '@earshot/contracts';
import type { TenantReads } from '@earshot/db';
import { deploymentRow, deploymentRows, type DeploymentRow } from '@earshot/read-models';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import type { TenantWrites } from '../tenant-writes';

/** Newest first by time, then id, as the read model's index orders it. */
const CURSOR: CursorKinds = { value: 'time', id: 'text' };

function deploymentOf(row: DeploymentRow): z.infer<typeof DeploymentSchema> {
  return {
    id: row.id,
    agent: row.agent,
    version: row.version,
    deployedAt: row.deployed_at.toISOString(),
    previousVersion: row.previous_version,
    environment: row.environment,
    description: row.description,
    deployedBy: row.deployed_by,
  };
}

/** GET /deployments (newest first, `agent` filter), GET /deployments/{id}, and POST /deployments (a deployment.recorded event). */
export function registerDeploymentRoutes(app: FastifyInstance, reads: TenantReads, writes: TenantWrites, now: () => Date): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/deployments',
    {
      schema: { querystring: DeploymentListQuerySchema, response: { 200: DeploymentListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /deployments') },
    },
    async (request) => {
      const paging = pagingOf(request.query, CURSOR);
      const rows = await readAs(reads, request, (tx) => deploymentRows(tx, { agent: request.query.agent }, paging));
      return pageOf(rows, paging, (r) => ({ v: r.deployed_at.toISOString(), id: r.id }), deploymentOf);
    },
  );

  routes.get(
    '/deployments/:id',
    {
      schema: { params: RecordIdParamsSchema, response: { 200: DeploymentAnswerSchema, ...ROUTE_ERRORS.read, 404: ErrorBodySchema } },
      config: { policy: policyOf('GET /deployments/:id') },
    },
    async (request) => {
      const { id } = request.params;
      const row = await readAs(reads, request, (tx) => deploymentRow(tx, id));
      if (!row) throw new ApiError('NOT_FOUND', `no deployment ${id}`);
      return { ok: true as const, deployment: deploymentOf(row) };
    },
  );

  routes.post(
    '/deployments',
    {
      schema: { headers: IdempotencyHeadersSchema, body: DeploymentInputSchema, response: { 201: AcceptedWriteSchema, ...ROUTE_ERRORS.write } },
      config: { policy: policyOf('POST /deployments') },
    },
    async (request, reply) => {
      const input = request.body;
      const deployedAt = input.deployedAt ?? now().toISOString();
      const answer = await writes.write(request, {
        type: 'deployment.recorded',
        id: input.id,
        data: (id) => ({
          deployment_id: id,
          agent: input.agent,
          version: input.version,
          deployed_at: deployedAt,
          previous_version: input.previousVersion ?? null,
          environment: input.environment ?? null,
          description: input.description ?? null,
          deployed_by: input.deployedBy ?? request.caller?.keyName ?? null,
        }),
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(answer.body);
    },
  );
}
