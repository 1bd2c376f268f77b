import {
  AlertRuleInputSchema,
  AlertRulePatchSchema,
  AlertWebhookInputSchema,
  ApiKeyInputSchema,
  DeploymentInputSchema,
  IncidentInputSchema,
  IncomingEventSchema,
  OutcomeInputSchema,
  PlanRetentionSchema,
  PricePlanSchema,
  ProviderConnectionInputSchema,
  RotationInputSchema,
  TenantDataSettingsSchema,
  CredentialRotationSchema,
} from '@earshot/contracts';
import { sampleEvent } from '@earshot/events/samples';
import { CreateTenantSchema, WebhookEventSchema } from '@earshot/contracts';

type Schema = Record<string, unknown>;

/** Where a request example waits in the operation until the document is finished (an `x-` key passes through fastify-swagger). */
export const REQUEST_EXAMPLE = 'x-request-example';

/**
 * Request examples, made from the same sample events the tests use and
 * parsed by the route's own contract where it exports one, so an example
 * can never drift from what the route accepts (Redocly checks every one
 * against the document too). The Postman collection sends them as they are.
 */
const REQUEST_EXAMPLES: Record<string, () => unknown> = {
  'POST /api/v1/webhooks/ingest': () => IncomingEventSchema.parse(sampleEvent('call.started')),
  'POST /api/v1/webhooks/events': () =>
    WebhookEventSchema.parse({ type: 'call.ended', agent_id: 'agent_support', provider_call_id: 'call_4f2a', latency_ms: 840 }),
  'POST /api/v1/outcomes': () =>
    OutcomeInputSchema.parse({
      callId: '3f6b0c5e-8a8d-4a57-b1f4-2c6e9d0a7b21',
      type: 'appointment_booked',
      value: 'tuesday 10:00',
      source: 'crm',
      revenueUsd: 120,
    }),
  'POST /api/v1/incidents': () => IncidentInputSchema.parse({ title: 'ASR latency above 800 ms', severity: 'high' }),
  'PATCH /api/v1/incidents/:id': () => ({ status: 'acknowledged', note: 'ASR vendor confirmed a regional slowdown' }),
  'POST /api/v1/alerts/rules': () =>
    AlertRuleInputSchema.parse({ name: 'more than 10 failed calls', metric: 'calls.failed', comparison: 'gt', threshold: 10, severity: 'warning' }),
  'PATCH /api/v1/alerts/rules/:id': () => AlertRulePatchSchema.parse({ threshold: 20 }),
  'PUT /api/v1/alerts/webhook': () => AlertWebhookInputSchema.parse({ url: 'https://hooks.example.com/earshot-alerts', enabled: true }),
  'POST /api/v1/deployments': () =>
    DeploymentInputSchema.parse({ agent: 'agent_support', version: 'v42', previousVersion: 'v41', environment: 'production', deployedBy: 'ci' }),
  'POST /api/v1/keys': () => ApiKeyInputSchema.parse({ name: 'dashboard read-only', scopes: ['calls:read', 'metrics:read'] }),
  'POST /api/v1/keys/:id/rotate': () => RotationInputSchema.parse({ overlapSeconds: 3600 }),
  'POST /api/v1/webhook-secret/rotate': () => RotationInputSchema.parse({ overlapSeconds: 3600 }),
  'POST /api/v1/providers': () =>
    ProviderConnectionInputSchema.parse({ provider: 'retell', name: 'support line', credentials: { apiKey: 'key_0f2c6a1b9d8e7f6a5b4c3d2e' } }),
  'POST /api/v1/providers/:id/rotate': () => CredentialRotationSchema.parse({ credentials: { apiKey: 'key_7e1d3c5b9a8f6e4d2c0b1a3f' }, overlapSeconds: 3600 }),
  'POST /api/v1/admin/tenants': () => CreateTenantSchema.parse({ name: 'Acme Voice', environment: 'production' }),
  'PUT /api/v1/admin/tenants/:id/plan': () =>
    PricePlanSchema.parse({ id: 'growth', baseFeeCents: 9900, prices: [{ meter: 'call_minutes', included: 1000, unitPriceCents: 2 }] }),
  'PUT /api/v1/admin/tenants/:id/data-settings': () =>
    TenantDataSettingsSchema.parse({ abandonAfterMs: 1_800_000, retention: { calls: 365, deliveries: 14, deadLetters: null, auditEntries: 'forever' } }),
  'PUT /api/v1/admin/plans/:planId/retention': () =>
    PlanRetentionSchema.parse({ retention: { calls: 90, deliveries: 30, deadLetters: 30, auditEntries: 400 } }),
};

/** The route's schema with its request example set aside for the finished document, where it has one. */
export function routeExamples(route: string, schema: Schema): Schema {
  const example = REQUEST_EXAMPLES[route];
  if (!example || !schema.body) return schema;
  return { ...schema, [REQUEST_EXAMPLE]: example() };
}
