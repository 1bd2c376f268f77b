import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import { newWebhookSecret, type AuthenticatedKey, type SecretBox } from '@earshot/auth';
import {
  ApiError,
  CredentialRotationSchema,
  fieldIssues,
  PROVIDER_CREDENTIALS,
  ProviderConnectionAnswerSchema,
  ProviderConnectionDeletedSchema,
  ProviderConnectionInputSchema,
  ProviderConnectionIssuedSchema,
  ProviderConnectionListQuerySchema,
  ProviderConnectionListSchema,
  ProviderConnectionParamsSchema,
  type ProviderConnection,
  type ProviderConnectionInput,
} from '@earshot/contracts';
import type { ConnectionPool } from '@earshot/db';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  publicOrigin,
  rotateConnectionCredentials,
  setConnectionStatus,
  webhookUrl,
  type ConnectionRecord,
} from '@earshot/provider-connections';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { CREATED_CURSOR, storeWindow } from '../page';
import { keysPolicy } from '../route-policy';

export interface ProviderConnectionDependencies {
  db: ConnectionPool;
  box: SecretBox;
  /** EARSHOT_PUBLIC_URL: the origin webhook URLs are made with. */
  publicUrl: string | undefined;
}

function callerOf(request: FastifyRequest): AuthenticatedKey {
  if (!request.caller) throw new Error(`${request.method} ${request.url} reached its handler without a caller`);
  return request.caller;
}

/** The credentials a new connection is stored with, and the secret to show once where Earshot made it. */
function credentialsOf(input: ProviderConnectionInput): { credentials: object; secret: string | null } {
  if (input.provider !== 'standard-webhooks') return { credentials: input.credentials, secret: null };
  const secret = newWebhookSecret();
  return { credentials: { secret }, secret };
}

/**
 * The tenant's connections to voice providers under /providers: create
 * (answering the webhook URL to paste at the provider, and the secret
 * Earshot generated for a Standard Webhooks sender, shown once), list, get,
 * rotate the credentials with an overlap, disable, enable and delete. The
 * credentials are sealed under the master key and never answered. Every
 * change is in the tenant's audit log.
 */
export function registerProviderConnectionRoutes(app: FastifyInstance, { db, box, publicUrl }: ProviderConnectionDependencies): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const reading = { policy: keysPolicy('providers:read') };
  const writing = { policy: keysPolicy('providers:write') };
  const resource = (request: FastifyRequest, record: ConnectionRecord): ProviderConnection => {
    const { tenantId: _tenant, ...shown } = record;
    return { ...shown, webhookUrl: webhookUrl(publicOrigin(publicUrl, request), record.provider, record.id) };
  };
  const found = (record: ConnectionRecord | undefined, id: string): ConnectionRecord => {
    if (!record) throw new ApiError('NOT_FOUND', `no provider connection ${id}`);
    return record;
  };
  const audit = (request: FastifyRequest, action: string, record: ConnectionRecord, detail: Record<string, unknown> = {}) => {
    const caller = callerOf(request);
    return recordAudit(db, {
      tenantId: caller.tenant.id,
      actor: { kind: 'apiKey', keyId: caller.keyId, keyName: caller.keyName },
      at: request.arrivedAt,
      action,
      target: record.id,
      ip: request.ip,
      requestId: request.id,
      detail: { provider: record.provider, name: record.name, ...detail },
    });
  };

  routes.post(
    '/providers',
    { schema: { body: ProviderConnectionInputSchema, response: { 201: ProviderConnectionIssuedSchema, ...ROUTE_ERRORS.read } }, config: writing },
    async (request, reply) => {
      const input = request.body;
      const { credentials, secret } = credentialsOf(input);
      const mapping = input.provider === 'standard-webhooks' ? (input.mapping ?? null) : null;
      const record = await createConnection(
        db,
        box,
        { tenantId: callerOf(request).tenant.id, provider: input.provider, name: input.name, credentials, mapping },
        request.arrivedAt,
      );
      await audit(request, 'provider_connection.created', record, { mapping: mapping !== null });
      return reply.status(201).send({ ok: true as const, connection: resource(request, record), secret });
    },
  );

  routes.get(
    '/providers',
    { schema: { querystring: ProviderConnectionListQuerySchema, response: { 200: ProviderConnectionListSchema, ...ROUTE_ERRORS.read } }, config: reading },
    async (request) => {
      const { provider, status } = request.query;
      const paging = pagingOf(request.query, CREATED_CURSOR);
      const rows = await listConnections(db, callerOf(request).tenant.id, { provider, status, ...storeWindow(paging) });
      return pageOf(
        rows,
        paging,
        (record) => ({ v: record.createdAt, id: record.id }),
        (record) => resource(request, record),
      );
    },
  );

  routes.get(
    '/providers/:id',
    { schema: { params: ProviderConnectionParamsSchema, response: { 200: ProviderConnectionAnswerSchema, ...ROUTE_ERRORS.readOne } }, config: reading },
    async (request) => {
      const record = found(await getConnection(db, callerOf(request).tenant.id, request.params.id), request.params.id);
      return { ok: true as const, connection: resource(request, record) };
    },
  );

  routes.post(
    '/providers/:id/rotate',
    {
      schema: {
        params: ProviderConnectionParamsSchema,
        body: CredentialRotationSchema,
        response: { 200: ProviderConnectionIssuedSchema, ...ROUTE_ERRORS.writeOne },
      },
      config: writing,
    },
    async (request) => {
      const tenantId = callerOf(request).tenant.id;
      const { id } = request.params;
      const current = found(await getConnection(db, tenantId, id), id);
      let credentials: object;
      let secret: string | null = null;
      if (current.provider === 'standard-webhooks') {
        if (request.body.credentials)
          throw new ApiError('CREDENTIALS_MISMATCH', 'a Standard Webhooks connection’s secret is generated: send no credentials', {
            fields: [{ path: 'body.credentials', message: 'not allowed' }],
          });
        secret = newWebhookSecret();
        credentials = { secret };
      } else {
        const parsed = PROVIDER_CREDENTIALS[current.provider].safeParse(request.body.credentials);
        if (!parsed.success) {
          const fields = fieldIssues(parsed.error).map((f) => ({ ...f, path: f.path === '(body)' ? 'body.credentials' : `body.credentials.${f.path}` }));
          throw new ApiError(
            'CREDENTIALS_MISMATCH',
            `the body does not fit this connection: the ${current.provider} credentials are ${fields.map((f) => f.path).join(', ')}`,
            {
              fields,
            },
          );
        }
        credentials = parsed.data;
      }
      const { overlapSeconds } = request.body;
      const previousValidUntil = new Date(request.arrivedAt.getTime() + overlapSeconds * 1000);
      const record = found(await rotateConnectionCredentials(db, box, tenantId, id, credentials, previousValidUntil, request.arrivedAt), id);
      await audit(request, 'provider_connection.rotated', record, { overlapSeconds, previousValidUntil: previousValidUntil.toISOString() });
      return { ok: true as const, connection: resource(request, record), secret };
    },
  );

  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    routes.post(
      `/providers/:id/${action}`,
      { schema: { params: ProviderConnectionParamsSchema, response: { 200: ProviderConnectionAnswerSchema, ...ROUTE_ERRORS.readOne } }, config: writing },
      async (request) => {
        const { id } = request.params;
        const record = found(await setConnectionStatus(db, callerOf(request).tenant.id, id, status, request.arrivedAt), id);
        await audit(request, `provider_connection.${action}d`, record);
        return { ok: true as const, connection: resource(request, record) };
      },
    );
  }

  routes.delete(
    '/providers/:id',
    { schema: { params: ProviderConnectionParamsSchema, response: { 200: ProviderConnectionDeletedSchema, ...ROUTE_ERRORS.readOne } }, config: writing },
    async (request) => {
      const { id } = request.params;
      const record = found(await deleteConnection(db, callerOf(request).tenant.id, id), id);
      await audit(request, 'provider_connection.deleted', record);
      return { ok: true as const, id: record.id };
    },
  );
}
