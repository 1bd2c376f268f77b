import { z } from 'zod';
import { $ZodRegistry, type $replace, type $ZodType, type GlobalMeta } from 'zod/v4/core';
import {
  AcceptedWriteSchema,
  AgentListSchema,
  AgentSchema,
  AlertListSchema,
  AlertNotificationListSchema,
  AlertNotificationSchema,
  AlertRuleInputSchema,
  AlertRuleListSchema,
  AlertRulePatchSchema,
  AlertRuleSchema,
  AlertSchema,
  AlertWebhookInputSchema,
  AlertWebhookSchema,
  ApiKeyInputSchema,
  ApiKeyListSchema,
  ApiKeyRecordSchema,
  AuditEntrySchema,
  AuditListSchema,
  BillingInvoiceSchema,
  CallSchema,
  CallDetailSchema,
  CallListPageSchema,
  CallResourceSchema,
  CallTurnSchema,
  DeploymentImpactSchema,
  DeploymentInputSchema,
  DeploymentListSchema,
  DeploymentSchema,
  ErrorBodySchema,
  EVENT_DATA_SCHEMAS,
  HealthDegradedSchema,
  HealthSchema,
  IncidentInputSchema,
  IncidentListSchema,
  IncidentSchema,
  IncomingEventSchema,
  InvoiceListSchema,
  IssuedApiKeySchema,
  jsonValue,
  LiveSnapshotSchema,
  MetricCatalogueSchema,
  MetricSeriesSchema,
  OutcomeInputSchema,
  OutcomeListSchema,
  OutcomeSchema,
  PricePlanSchema,
  type ProviderName,
  CredentialRotationSchema,
  EventMappingSchema,
  ProviderConnectionInputSchema,
  ProviderConnectionIssuedSchema,
  ProviderConnectionListSchema,
  ProviderConnectionSchema,
  ProviderDeliveryAnswerSchema,
  RetellCredentialsSchema,
  RotationInputSchema,
  SharedSecretCredentialsSchema,
  TenantListSchema,
  TenantSummarySchema,
  TraceReferenceSchema,
  TranscriptSegmentSchema,
  TwilioCredentialsSchema,
  UsageListSchema,
  UsageMeterSchema,
  VapiCredentialsSchema,
  WebhookSecretRotatedSchema,
  WebhookSecretStatusSchema,
} from '@earshot/contracts';
import { AcceptedSchema, CreateTenantSchema, WebhookEventSchema } from '@earshot/contracts';

/**
 * The contracts that become named components, so generated clients get one
 * model per resource (`Call`, `CallPage`, `ErrorBody`) rather than one per
 * operation and status. A request body's component is named as here; the
 * schema a response uses keeps the name too (see finished-document.ts).
 */
const NAMED: readonly (readonly [string, $ZodType])[] = [
  ['ErrorBody', ErrorBodySchema],
  ['JsonValue', jsonValue],
  ['Health', HealthSchema],
  ['HealthDegraded', HealthDegradedSchema],
  ['AcceptedWrite', AcceptedWriteSchema],
  ['AcceptedEvent', AcceptedSchema],
  ['IncomingEvent', IncomingEventSchema],
  ['EventCall', CallSchema],
  ['WebhookEvent', WebhookEventSchema],
  ['Call', CallResourceSchema],
  ['CallTurn', CallTurnSchema],
  ['TranscriptSegment', TranscriptSegmentSchema],
  ['TraceReference', TraceReferenceSchema],
  ['CallDetail', CallDetailSchema],
  ['CallPage', CallListPageSchema],
  ['Outcome', OutcomeSchema],
  ['NewOutcome', OutcomeInputSchema],
  ['OutcomePage', OutcomeListSchema],
  ['Incident', IncidentSchema],
  ['NewIncident', IncidentInputSchema],
  ['IncidentPage', IncidentListSchema],
  ['Deployment', DeploymentSchema],
  ['NewDeployment', DeploymentInputSchema],
  ['DeploymentPage', DeploymentListSchema],
  ['DeploymentImpact', DeploymentImpactSchema],
  ['Alert', AlertSchema],
  ['AlertPage', AlertListSchema],
  ['AlertRule', AlertRuleSchema],
  ['NewAlertRule', AlertRuleInputSchema],
  ['AlertRuleChange', AlertRulePatchSchema],
  ['AlertRulePage', AlertRuleListSchema],
  ['AlertWebhook', AlertWebhookSchema],
  ['AlertWebhookSettings', AlertWebhookInputSchema],
  ['AlertNotification', AlertNotificationSchema],
  ['AlertNotificationPage', AlertNotificationListSchema],
  ['MetricSeries', MetricSeriesSchema],
  ['MetricCatalogue', MetricCatalogueSchema],
  ['Agent', AgentSchema],
  ['AgentPage', AgentListSchema],
  ['LiveSnapshot', LiveSnapshotSchema],
  ['UsageMeter', UsageMeterSchema],
  ['UsagePage', UsageListSchema],
  ['Invoice', BillingInvoiceSchema],
  ['InvoicePage', InvoiceListSchema],
  ['PricePlan', PricePlanSchema],
  ['AuditEntry', AuditEntrySchema],
  ['AuditPage', AuditListSchema],
  ['ApiKey', ApiKeyRecordSchema],
  ['NewApiKey', ApiKeyInputSchema],
  ['IssuedApiKey', IssuedApiKeySchema],
  ['ApiKeyPage', ApiKeyListSchema],
  ['Rotation', RotationInputSchema],
  ['WebhookSecretRotated', WebhookSecretRotatedSchema],
  ['WebhookSecretStatus', WebhookSecretStatusSchema],
  ['ProviderConnection', ProviderConnectionSchema],
  ['NewProviderConnection', ProviderConnectionInputSchema],
  ['RetellCredentials', RetellCredentialsSchema],
  ['VapiCredentials', VapiCredentialsSchema],
  ['TwilioCredentials', TwilioCredentialsSchema],
  ['SharedSecretCredentials', SharedSecretCredentialsSchema],
  ['EventMapping', EventMappingSchema],
  ['IssuedProviderConnection', ProviderConnectionIssuedSchema],
  ['ProviderConnectionPage', ProviderConnectionListSchema],
  ['CredentialRotation', CredentialRotationSchema],
  ['ProviderDelivery', ProviderDeliveryAnswerSchema],
  ['Tenant', TenantSummarySchema],
  ['TenantPage', TenantListSchema],
  ['NewTenant', CreateTenantSchema],
];

/** `call.started` → `CallStarted`. */
const pascal = (type: string) => type.replace(/(?:^|[._])([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** One component per event type, its envelope (`CallStartedEvent`) and its data (`CallStartedData`), so generated models are named after events. */
const EVENT_COMPONENTS = IncomingEventSchema.options.flatMap((option) => {
  const type = option.shape.type.value;
  return [
    [`${pascal(type)}Event`, option],
    [`${pascal(type)}Data`, EVENT_DATA_SCHEMAS[type]],
  ] as const;
});

const PROVIDER_LABELS: Record<ProviderName, string> = {
  retell: 'Retell',
  vapi: 'Vapi',
  twilio: 'Twilio',
  elevenlabs: 'ElevenLabs',
  bland: 'Bland',
  'standard-webhooks': 'StandardWebhooks',
};

/**
 * One component per provider's connection request (`NewRetellConnection`) and per kind of Vapi credential
 * (`VapiHmacCredentials`): generators name a union's inline variants by position, and two variants' inline
 * credentials then got the same model name.
 */
const PROVIDER_COMPONENTS = [
  ...ProviderConnectionInputSchema.options.map((option) => [`New${PROVIDER_LABELS[option.shape.provider.value]}Connection`, option] as const),
  ...VapiCredentialsSchema.options.map((option) => [`Vapi${pascal(option.shape.type.value)}Credentials`, option] as const),
];

/**
 * A registry of the components' ids that reads everything else (what the
 * contracts say with .describe() and .meta()) from zod's global registry.
 * The ids stay out of the global registry: every other z.toJSONSchema (the
 * GraphQL types) would otherwise turn these schemas into `$ref`s.
 */
class ComponentRegistry extends $ZodRegistry<GlobalMeta> {
  override get<S extends $ZodType>(schema: S): $replace<GlobalMeta, S> | undefined {
    const { id: _notAComponent, ...described } = z.globalRegistry.get(schema) ?? {};
    const merged = { ...described, ...this._map.get(schema) };
    return Object.keys(merged).length > 0 ? merged : undefined;
  }
}

export const COMPONENTS = new ComponentRegistry();
for (const [id, schema] of [...NAMED, ...EVENT_COMPONENTS, ...PROVIDER_COMPONENTS]) if (!COMPONENTS.get(schema)?.id) COMPONENTS.add(schema, { id });
