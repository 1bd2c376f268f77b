import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import { rotateWebhookSecret, type SecretBox } from '@earshot/auth';
import { RotationInputSchema, WebhookSecretRotatedSchema } from '@earshot/contracts';
import type { ConnectionPool } from '@earshot/db';
import { ERRORS, keysPolicy } from '../route-policy';

/**
 * POST /webhook-secret/rotate: a new webhook secret, shown once; signatures
 * made with the previous one still verify for the chosen overlap, so senders
 * switch without a gap. A second rotation within the overlap retires the
 * oldest secret at once (two secrets verify at most).
 */
export function registerWebhookSecretRoutes(app: FastifyInstance, db: ConnectionPool, box: SecretBox): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/webhook-secret/rotate',
    {
      schema: { body: RotationInputSchema.optional(), response: { 200: WebhookSecretRotatedSchema, ...ERRORS } },
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
