import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import type { DataKeys } from '@earshot/auth';
import {
  ApiError,
  CallErasedSchema,
  CallErasureBodySchema,
  CallErasureQuerySchema,
  CallParamsSchema,
  ErrorBodySchema,
  IdempotencyHeadersSchema,
  type CallErased,
} from '@earshot/contracts';
import { sql, TENANT_SETTING, type ConnectionPool } from '@earshot/db';
import { ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';

const ERASED = 'call.erased';
/** The read-model tables that hold a call's rows besides `calls` itself; outcomes are the tenant's own records and stay. */
const CALL_TABLES = ['turns', 'transcripts', 'traces'] as const;

/**
 * Erases one call in one transaction: destroys its data key, so the fields
 * its events sealed cannot be opened by the projector, a replay, the stream
 * or an export, and deletes its rows from the read models. The table owner
 * deletes, with the tenant set for tables that force row-level security.
 */
async function eraseCall(db: ConnectionPool, keys: DataKeys, tenantId: string, callId: string): Promise<Omit<CallErased, 'ok' | 'id'>> {
  return db.tx(async (tx) => {
    await tx.query(sql`select set_config(${TENANT_SETTING}, ${tenantId}, true)`);
    const dataKeyDestroyed = await keys.eraseCall(tenantId, callId, tx);
    let rowsDeleted = 0;
    const count = async (table: string, column: string) => {
      const [gone] = (await tx.query(
        sql`with gone as (delete from ${sql.ident(table)} where tenant_id = ${tenantId} and ${sql.ident(column)} = ${callId}::uuid returning 1)
            select count(*)::int as n from gone`,
      )) as { n: number }[];
      rowsDeleted += gone?.n ?? 0;
    };
    for (const table of CALL_TABLES) await count(table, 'call_id');
    await count('calls', 'id');
    const [before] = (await tx.query(
      sql`select 1 from audit_entries where tenant_id = ${tenantId} and action = ${ERASED} and target = ${callId} limit 1`,
    )) as unknown[];
    return { dataKeyDestroyed, rowsDeleted, alreadyErased: !dataKeyDestroyed && rowsDeleted === 0 && before !== undefined };
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function reasonOf(body: { reason: string } | null | undefined, query: { reason?: string | undefined }): string {
  const reason = body?.reason ?? query.reason;
  if (reason === undefined)
    throw new ApiError('VALIDATION_ERROR', 'erasing a call needs a reason: { "reason": "…" } in the body, or ?reason=… in the query', {
      fields: [{ path: 'body.reason', message: 'required' }],
    });
  return reason;
}

/**
 * DELETE /calls/{id}: per-call erasure (crypto-shredding with the call's own
 * data key), with a reason, recorded in the audit log. Erasing again answers
 * 200 with `alreadyErased`; an id the tenant never had is 404. Events of the
 * call that arrive later are sealed with a new key and make a new call.
 */
export function registerCallErasureRoute(app: FastifyInstance, db: ConnectionPool, keys: DataKeys): void {
  app.withTypeProvider<ZodTypeProvider>().delete(
    '/calls/:id',
    {
      schema: {
        params: CallParamsSchema,
        querystring: CallErasureQuerySchema,
        headers: IdempotencyHeadersSchema,
        // A DELETE without a body reaches validation as null.
        body: CallErasureBodySchema.nullish(),
        response: { 200: CallErasedSchema, ...ROUTE_ERRORS.write, 404: ErrorBodySchema },
      },
      config: { policy: policyOf('DELETE /calls/:id') },
    },
    async (request) => {
      const caller = request.caller;
      if (!caller) throw new Error('an erasure reached its handler without a caller');
      const { id } = request.params;
      const reason = reasonOf(request.body, request.query);
      const tenantId = caller.tenant.id;
      // Not a uuid is as absent as another tenant's call.
      const erased = UUID.test(id) ? await eraseCall(db, keys, tenantId, id) : undefined;
      if (!erased || (!erased.dataKeyDestroyed && erased.rowsDeleted === 0 && !erased.alreadyErased)) throw new ApiError('NOT_FOUND', `no call with id ${id}`);
      if (!erased.alreadyErased)
        await recordAudit(db, {
          tenantId,
          actor: { kind: 'apiKey', keyId: caller.keyId, keyName: caller.keyName },
          at: request.arrivedAt,
          action: ERASED,
          target: id,
          ip: request.ip,
          requestId: request.id,
          detail: { route: 'DELETE /api/v1/calls/:id', reason, dataKeyDestroyed: erased.dataKeyDestroyed, rowsDeleted: erased.rowsDeleted },
        });
      if (!erased.dataKeyDestroyed && erased.rowsDeleted > 0)
        request.log.warn({ tenantId, callId: id }, 'a call erased without a data key: its events were appended in the clear, and a replay brings it back');
      return { ok: true as const, id, ...erased };
    },
  );
}
