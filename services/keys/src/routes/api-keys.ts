import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import { createApiKey, getApiKey, listApiKeys, revokeApiKey, rotateApiKey, type AuthenticatedKey } from '@earshot/auth';
import {
  ApiError,
  ApiKeyAnswerSchema,
  ApiKeyInputSchema,
  ApiKeyListQuerySchema,
  ApiKeyListSchema,
  ApiKeyParamsSchema,
  IssuedApiKeySchema,
  RotationInputSchema,
  type ApiKeyRecord,
} from '@earshot/contracts';
import type { ConnectionPool } from '@earshot/db';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { CREATED_CURSOR, storeWindow } from '../page';
import { keysPolicy } from '../route-policy';

export interface KeyRouteDependencies {
  db: ConnectionPool;
}

function callerOf(request: FastifyRequest): AuthenticatedKey {
  if (!request.caller) throw new Error(`${request.method} ${request.url} reached its handler without a caller`);
  return request.caller;
}

function found(record: ApiKeyRecord | undefined, id: string): ApiKeyRecord {
  if (!record) throw new ApiError('NOT_FOUND', `no API key ${id}`);
  return record;
}

/** Each key action goes to the tenant's audit log, done by the key that asked. */
function audit(db: ConnectionPool, request: FastifyRequest, action: string, record: ApiKeyRecord, detail: Record<string, unknown> = {}) {
  const caller = callerOf(request);
  return recordAudit(db, {
    tenantId: caller.tenant.id,
    actor: { kind: 'apiKey', keyId: caller.keyId, keyName: caller.keyName },
    at: request.arrivedAt,
    action,
    target: record.id,
    ip: request.ip,
    requestId: request.id,
    detail: { name: record.name, prefix: record.prefix, ...detail },
  });
}

/**
 * The tenant's API keys under /keys: create (the key shown once), list, get,
 * rotate (a new key; the old one works for the chosen overlap) and revoke.
 * No Idempotency-Key replay here: a replay would have to store the key it
 * showed, and keys are never stored.
 */
export function registerApiKeyRoutes(app: FastifyInstance, { db }: KeyRouteDependencies): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const reading = { policy: keysPolicy('keys:read') };
  const writing = { policy: keysPolicy('keys:write') };

  routes.post(
    '/keys',
    { schema: { body: ApiKeyInputSchema, response: { 201: IssuedApiKeySchema, ...ROUTE_ERRORS.read } }, config: writing },
    async (request, reply) => {
      const caller = callerOf(request);
      const input = request.body;
      const beyond = input.scopes.filter((scope) => !caller.scopes.includes(scope));
      if (beyond.length > 0) throw new ApiError('FORBIDDEN', `a key can grant only scopes it holds; this key lacks ${beyond.join(', ')}`);
      const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
      if (expiresAt !== null && expiresAt <= request.arrivedAt) {
        throw new ApiError('VALIDATION_ERROR', 'the body is invalid: body.expiresAt', {
          fields: [{ path: 'body.expiresAt', message: 'must be in the future' }],
        });
      }
      const issued = await createApiKey(
        db,
        {
          tenantId: caller.tenant.id,
          name: input.name,
          scopes: [...new Set(input.scopes)],
          environment: input.environment,
          workspace: input.workspace,
          ipAllowlist: input.ipAllowlist === 'any' ? [] : input.ipAllowlist,
          expiresAt,
          createdBy: { kind: 'apiKey', keyId: caller.keyId },
        },
        request.arrivedAt,
      );
      const { record } = issued;
      await audit(db, request, 'key.created', record, {
        scopes: record.scopes,
        environment: record.environment,
        workspace: record.workspace,
        ipAllowlist: record.ipAllowlist,
        expiresAt: record.expiresAt,
      });
      return reply.status(201).send({ ok: true, key: record, secret: issued.secret });
    },
  );

  routes.get(
    '/keys',
    { schema: { querystring: ApiKeyListQuerySchema, response: { 200: ApiKeyListSchema, ...ROUTE_ERRORS.read } }, config: reading },
    async (request) => {
      const { workspace, status } = request.query;
      const paging = pagingOf(request.query, CREATED_CURSOR);
      const rows = await listApiKeys(db, callerOf(request).tenant.id, { workspace, status, ...storeWindow(paging) }, request.arrivedAt);
      return pageOf(
        rows,
        paging,
        (key) => ({ v: key.createdAt, id: key.id }),
        (key) => key,
      );
    },
  );

  routes.get(
    '/keys/:id',
    { schema: { params: ApiKeyParamsSchema, response: { 200: ApiKeyAnswerSchema, ...ROUTE_ERRORS.readOne } }, config: reading },
    async (request) => {
      const { id } = request.params;
      return { ok: true as const, key: found(await getApiKey(db, callerOf(request).tenant.id, id, request.arrivedAt), id) };
    },
  );

  routes.post(
    '/keys/:id/rotate',
    {
      schema: { params: ApiKeyParamsSchema, body: RotationInputSchema.optional(), response: { 200: IssuedApiKeySchema, ...ROUTE_ERRORS.readOne } },
      config: writing,
    },
    async (request) => {
      const { id } = request.params;
      const overlapSeconds = request.body?.overlapSeconds ?? RotationInputSchema.parse({}).overlapSeconds;
      const overlapUntil = new Date(request.arrivedAt.getTime() + overlapSeconds * 1000);
      const rotated = await rotateApiKey(db, callerOf(request).tenant.id, id, overlapUntil, request.arrivedAt);
      if (rotated === 'unknown') throw new ApiError('NOT_FOUND', `no API key ${id}`);
      if (rotated === 'revoked' || rotated === 'expired')
        throw new ApiError('VALIDATION_ERROR', `API key ${id} is ${rotated}: only a working key can be rotated; create a new one`);
      await audit(db, request, 'key.rotated', rotated.record, { overlapSeconds, previousValidUntil: overlapUntil.toISOString() });
      return { ok: true as const, key: rotated.record, secret: rotated.secret };
    },
  );

  routes.post(
    '/keys/:id/revoke',
    { schema: { params: ApiKeyParamsSchema, response: { 200: ApiKeyAnswerSchema, ...ROUTE_ERRORS.readOne } }, config: writing },
    async (request) => {
      const { id } = request.params;
      const record = found(await revokeApiKey(db, callerOf(request).tenant.id, id, request.arrivedAt), id);
      await audit(db, request, 'key.revoked', record);
      return { ok: true as const, key: record };
    },
  );
}
