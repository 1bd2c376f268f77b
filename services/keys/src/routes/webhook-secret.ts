import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import { rotateWebhookSecret, type SecretBox } from '@earshot/auth';
import { RotationInputSchema, WebhookSecretRotatedSchema, WebhookSecretStatusSchema } from '@earshot/contracts';
import { sql, type ConnectionPool } from '@earshot/db';
import { keysPolicy } from '../route-policy';
import { ROUTE_ERRORS } from '@earshot/server';

/**
 * GET /webhook-secret: where the latest rotation left the secret (never the
 * secret itself), so a client holding a rotated secret can tell whether it
 * is still the current one. POST /webhook-secret/rotate: a new webhook secret, shown once; signatures
 * made with the previous one still verify for the chosen overlap, so senders
 * switch without a gap. A second rotation within the overlap retires the
 * oldest secret at once (two secrets verify at most).
 */
export function registerWebhookSecretRoutes(app: FastifyInstance, db: ConnectionPool, box: SecretBox): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/webhook-secret',
      { schema: { response: { 200: WebhookSecretStatusSchema, ...ROUTE_ERRORS.read } }, config: { policy: keysPolicy('keys:read') } },
      async (request) => {
        const tenantId = request.caller?.tenant.id;
        if (!tenantId) throw new Error('GET /webhook-secret reached its handler without a caller');
        const [row] = (await db.query(sql`select previous_secret_expires_at from tenants where id = ${tenantId}`)) as {
          previous_secret_expires_at: Date | null;
        }[];
        return { ok: true as const, previousValidUntil: row?.previous_secret_expires_at?.toISOString() ?? null };
      },
    );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/webhook-secret/rotate',
    {
      schema: { body: RotationInputSchema.optional(), response: { 200: WebhookSecretRotatedSchema, ...ROUTE_ERRORS.read } },
      config: { policy: keysPolicy('keys:write') },
    },
    async (request) => {
      const caller = request.caller;
      if (!caller) throw new Error('POST /webhook-secret/rotate reached its handler without a caller');
      const overlapSeconds = request.body?.overlapSeconds ?? RotationInputSchema.parse({}).overlapSeconds;
      const previousValidUntil = new Date(request.arrivedAt.getTime() + overlapSeconds * 1000);
      const webhookSecret = await rotateWebhookSecret(db, box, caller.tenant.id, previousValidUntil);
      await recordAudit(db, {
        tenantId: caller.tenant.id,
        actor: { kind: 'apiKey', keyId: caller.keyId, keyName: caller.keyName },
        at: request.arrivedAt,
        action: 'webhook_secret.rotated',
        target: caller.tenant.id,
        ip: request.ip,
        requestId: request.id,
        detail: { overlapSeconds, previousValidUntil: previousValidUntil.toISOString() },
      });
      return { ok: true as const, webhookSecret, previousValidUntil: previousValidUntil.toISOString() };
    },
  );
}
