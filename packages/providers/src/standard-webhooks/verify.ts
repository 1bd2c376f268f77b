import { verifyStandardWebhook } from '@earshot/auth';
import { StandardWebhooksCredentialsSchema } from '@earshot/contracts';
import type { Verifier } from '../delivery';

const REASONS = {
  missing: 'the webhook-id, webhook-timestamp and webhook-signature headers are required',
  timestamp: 'webhook-timestamp must be Unix time in seconds',
  stale: 'webhook-timestamp is more than 5 minutes from server time',
  mismatch: 'webhook-signature holds no v1 signature of "webhook-id.webhook-timestamp.body" with the connection’s secret',
} as const;

/** The Standard Webhooks specification: `v1,<base64>` signatures (several, space separated) of `id.timestamp.body`. */
export function standardWebhooksVerifier(credentials: readonly unknown[]): Verifier {
  const secrets = credentials.map((c) => StandardWebhooksCredentialsSchema.parse(c).secret);
  return (request) => {
    const timestamp = request.headers['webhook-timestamp'];
    const check = verifyStandardWebhook(
      { id: request.headers['webhook-id'], timestamp, signature: request.headers['webhook-signature'], body: request.body },
      secrets,
      request.receivedAt,
    );
    return check.ok ? { ok: true, deliveryId: check.id, signedAt: new Date(Number(timestamp) * 1000) } : { ok: false, reason: REASONS[check.reason] };
  };
}
