import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import type { DataKeys } from '@earshot/auth';
import {
  ApiError,
  CallErasedSchema,
  CallErasureQuerySchema,
  CallParamsSchema,
  ErrorBodySchema,
  IdempotencyHeadersSchema,
  type CallErased,
} from '@earshot/contracts';
import { ownerInTenant, sql, type ConnectionPool } from '@earshot/db';
import { deleteCallRows } from '@earshot/read-models';
import { ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';

const ERASED = 'call.erased';

interface ErasureDeps {
  db: ConnectionPool;
  keys: DataKeys;
}

/**
 * Erases one call: destroys its data key, so the fields its events sealed
 * cannot be opened by the projector, a replay, the stream or an export,
 * records the erasure for its events appended in the clear (erased_calls),
 * and deletes its rows from the read models, in one transaction. A
 * projector batch in flight holds what it opened the call's events with
 * until it commits (DataKeys.hold, DataKeys.holdErasures), so the erasure
 * waits for its rows and deletes them, or the batch finds the call erased and
 * writes none; a rebuild deletes them from its copy at its swap.
 */
async function eraseCall({ db, keys }: ErasureDeps, tenantId: string, callId: string): Promise<Omit<CallErased, 'ok' | 'id'>> {
  return ownerInTenant(db, tenantId, async (tx) => {
    const dataKeyDestroyed = await keys.eraseCall(tenantId, callId, tx);
    const rowsDeleted = await deleteCallRows(tx, tenantId, callId);
    const [before] = (await tx.query(
      sql`select 1 from audit_entries where tenant_id = ${tenantId} and action = ${ERASED} and target = ${callId} limit 1`,
    )) as unknown[];
    return { dataKeyDestroyed, rowsDeleted, alreadyErased: !dataKeyDestroyed && rowsDeleted === 0 && before !== undefined };
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * DELETE /calls/{id}: per-call erasure (crypto-shredding with the call's own
 * data key), with a reason, recorded in the audit log. Erasing again answers
 * 200 with `alreadyErased`; an id the tenant never had is 404. Events of the
 * call that arrive later are sealed with a new key and make a new call.
 */
export function registerCallErasureRoute(app: FastifyInstance, deps: ErasureDeps): void {
  const { db } = deps;
  app.withTypeProvider<ZodTypeProvider>().delete(
    '/calls/:id',
    {
      schema: {
        params: CallParamsSchema,
        querystring: CallErasureQuerySchema,
        headers: IdempotencyHeadersSchema,
        response: { 200: CallErasedSchema, ...ROUTE_ERRORS.write, 404: ErrorBodySchema },
      },
      config: { policy: policyOf('DELETE /calls/:id') },
    },
    async (request) => {
      const caller = request.caller;
      if (!caller) throw new Error('an erasure reached its handler without a caller');
      const { id } = request.params;
      const { reason } = request.query;
      const tenantId = caller.tenant.id;
      // Not a uuid is as absent as another tenant's call. Call ids and their data keys are lowercase, as the API names them.
      const callId = id.toLowerCase();
      const erased = UUID.test(id) ? await eraseCall(deps, tenantId, callId) : undefined;
      if (!erased || (!erased.dataKeyDestroyed && erased.rowsDeleted === 0 && !erased.alreadyErased)) throw new ApiError('NOT_FOUND', `no call with id ${id}`);
      if (!erased.alreadyErased)
        await recordAudit(db, {
          tenantId,
          actor: { kind: 'apiKey', keyId: caller.keyId, keyName: caller.keyName },
          at: request.arrivedAt,
          action: ERASED,
          target: callId,
          ip: request.ip,
          requestId: request.id,
          detail: { route: 'DELETE /api/v1/calls/:id', reason, dataKeyDestroyed: erased.dataKeyDestroyed, rowsDeleted: erased.rowsDeleted },
        });
      if (!erased.dataKeyDestroyed && erased.rowsDeleted > 0)
        request.log.warn(
          { tenantId, callId },
          'a call erased without a data key: its events were appended in the clear and stay in the log; the read models, replays, the stream and tenant exports pass over them',
        );
      return { ok: true as const, id, ...erased };
    },
  );
}
