import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcceptedWriteSchema,
  ApiError,
  ErrorBodySchema,
  freeText,
  IdempotencyHeadersSchema,
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  RecordIdParamsSchema,
  storedText,
} from '@earshot/contracts';
import type { TenantReads } from '@earshot/db';
import { incidentStatus } from '@earshot/read-models';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import type { TenantWrites } from '../tenant-writes';
import { ROUTE_ERRORS } from '@earshot/server';

const IncidentPatchSchema = z
  .strictObject({
    status: z.enum(INCIDENT_STATUSES).optional(),
    severity: z.enum(INCIDENT_SEVERITIES).optional(),
    title: freeText(300).optional(),
    description: storedText(10_000).optional(),
    note: freeText(10_000).optional().describe('added to the incident timeline'),
    affectedAgents: z.array(storedText(200).min(1)).max(100).optional(),
    affectedCalls: z.array(storedText(200).min(1)).max(1_000).optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'change at least one field')
  .meta({ minProperties: 1 });

/** PATCH /incidents/{id}: moves an incident along open → acknowledged → resolved (or any other status), with a note for its timeline. */
export function registerIncidentChangeRoutes(app: FastifyInstance, reads: TenantReads, writes: TenantWrites): void {
  app.withTypeProvider<ZodTypeProvider>().patch(
    '/incidents/:id',
    {
      schema: {
        params: RecordIdParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: IncidentPatchSchema,
        response: { 200: AcceptedWriteSchema, ...ROUTE_ERRORS.write, 404: ErrorBodySchema },
      },
      config: { policy: policyOf('PATCH /incidents/:id') },
    },
    async (request, reply) => {
      const { id } = request.params;
      const current = await readAs(reads, request, (tx) => incidentStatus(tx, id));
      if (current === undefined) throw new ApiError('NOT_FOUND', `no incident ${id}`);
      const patch = request.body;
      const status = patch.status ?? null;
      const answer = await writes.write(request, {
        type: 'incident.updated',
        id,
        data: () => ({
          incident_id: id,
          title: patch.title ?? null,
          severity: patch.severity ?? null,
          status,
          description: patch.description ?? null,
          note: patch.note ?? (status === null ? null : `status: ${patch.status}`),
          affected_agents: patch.affectedAgents ?? null,
          affected_calls: patch.affectedCalls ?? null,
          resolved_at: null,
          updated_by: request.caller?.keyName ?? null,
        }),
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(200).send(answer.body);
    },
  );
}
