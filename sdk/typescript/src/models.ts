/**
 * The API's models by name, each taken from the types openapi-typescript
 * generated from /openapi.json (src/generated/openapi.ts), never written twice.
 */
import type { paths } from './generated/openapi.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = paths[P][M];
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The body of an operation's successful (2xx) answer. */
export type Success<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]> : never;
/** An operation's query parameters. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? ([Q] extends [never] ? Record<string, never> : NonNullable<Q>) : never;
/** An operation's JSON request body. */
export type BodyOf<P extends keyof paths, M extends Method> = Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

type Item<List> = List extends { items: (infer T)[] } ? T : never;

/** `{ ok: true, id }`: what a write answers once the log holds it. */
export type WriteResult = Success<'/api/v1/outcomes', 'post'>;

export type Call = Item<Success<'/api/v1/calls', 'get'>>;
export type CallEraseParams = QueryOf<'/api/v1/calls/{id}', 'delete'>;
export type CallErased = Success<'/api/v1/calls/{id}', 'delete'>;
/** A call with its turns, transcript and traces (GET /calls/{id}). */
export type CallDetail = Success<'/api/v1/calls/{id}', 'get'>['call'];
export type CallListParams = QueryOf<'/api/v1/calls', 'get'>;

export type Outcome = Item<Success<'/api/v1/outcomes', 'get'>>;
export type OutcomeListParams = QueryOf<'/api/v1/outcomes', 'get'>;
export type OutcomeCreateParams = BodyOf<'/api/v1/outcomes', 'post'>;

export type Incident = Item<Success<'/api/v1/incidents', 'get'>>;
export type IncidentListParams = QueryOf<'/api/v1/incidents', 'get'>;
export type IncidentCreateParams = BodyOf<'/api/v1/incidents', 'post'>;
export type IncidentUpdateParams = BodyOf<'/api/v1/incidents/{id}', 'patch'>;

export type Alert = Item<Success<'/api/v1/alerts', 'get'>>;
export type AlertListParams = QueryOf<'/api/v1/alerts', 'get'>;
export type AlertNotification = Item<Success<'/api/v1/alerts/notifications', 'get'>>;
export type AlertNotificationListParams = QueryOf<'/api/v1/alerts/notifications', 'get'>;
export type AlertWebhook = Success<'/api/v1/alerts/webhook', 'get'>;
export type AlertWebhookParams = BodyOf<'/api/v1/alerts/webhook', 'put'>;

export type AlertRule = Success<'/api/v1/alerts/rules/{id}', 'get'>['rule'];
export type AlertRuleListParams = QueryOf<'/api/v1/alerts/rules', 'get'>;
export type AlertRuleCreateParams = BodyOf<'/api/v1/alerts/rules', 'post'>;
export type AlertRuleUpdateParams = BodyOf<'/api/v1/alerts/rules/{id}', 'patch'>;

export type Deployment = Success<'/api/v1/deployments/{id}', 'get'>['deployment'];
export type DeploymentListParams = QueryOf<'/api/v1/deployments', 'get'>;
export type DeploymentCreateParams = BodyOf<'/api/v1/deployments', 'post'>;
export type DeploymentImpact = Success<'/api/v1/deployments/{id}/impact', 'get'>;
export type DeploymentImpactParams = QueryOf<'/api/v1/deployments/{id}/impact', 'get'>;

/** A metric of the catalogue: its name, what it measures and its unit. */
export type MetricDefinition = Item<Success<'/api/v1/metrics/catalogue', 'get'>>;
export type MetricSeries = Success<'/api/v1/metrics', 'get'>;
export type MetricSeriesParams = QueryOf<'/api/v1/metrics', 'get'>;

/** Calls in progress, success rate and latency over the last minutes (GET /realtime's `live`). */
export type LiveSnapshot = Success<'/api/v1/realtime', 'get'>['live'];
export type Usage = Success<'/api/v1/usage', 'get'>;
export type UsageDay = Item<Usage>;
export type UsageParams = QueryOf<'/api/v1/usage', 'get'>;
export type Invoice = Item<Success<'/api/v1/billing/invoices', 'get'>>;
export type InvoiceListParams = QueryOf<'/api/v1/billing/invoices', 'get'>;
export type AuditEntry = Item<Success<'/api/v1/audit', 'get'>>;
export type AuditListParams = QueryOf<'/api/v1/audit', 'get'>;

/** The calling key's tenant (GET /tenant). */
export type Tenant = Success<'/api/v1/tenant', 'get'>['tenant'];

export type APIKey = Success<'/api/v1/keys/{id}', 'get'>['key'];
export type KeyListParams = QueryOf<'/api/v1/keys', 'get'>;
export type KeyCreateParams = BodyOf<'/api/v1/keys', 'post'>;
/** A key with its secret, shown once: what creating or rotating a key answers. */
export type KeyWithSecret = Success<'/api/v1/keys', 'post'>;
export type KeyRotateParams = NonNullable<BodyOf<'/api/v1/keys/{id}/rotate', 'post'>>;
export type WebhookSecretRotateParams = NonNullable<BodyOf<'/api/v1/webhook-secret/rotate', 'post'>>;
export type WebhookSecretRotation = Success<'/api/v1/webhook-secret/rotate', 'post'>;

export type ProviderConnection = Success<'/api/v1/providers/{id}', 'get'>['connection'];
export type ProviderConnectionListParams = QueryOf<'/api/v1/providers', 'get'>;
export type ProviderConnectionCreateParams = BodyOf<'/api/v1/providers', 'post'>;
/** A connection with its Standard Webhooks secret, shown once (null when the provider's own credentials were given). */
export type ProviderConnectionIssued = Success<'/api/v1/providers', 'post'>;
export type ProviderCredentialRotateParams = BodyOf<'/api/v1/providers/{id}/rotate', 'post'>;
/** `{ ok: true, id }`: what deleting a connection answers. */
export type ProviderConnectionDeleted = Success<'/api/v1/providers/{id}', 'delete'>;

export type Health = Success<'/health', 'get'>;

type IngestBody = BodyOf<'/api/v1/webhooks/ingest', 'post'>;
/** One signed event envelope, as POST /webhooks/ingest takes it. */
export type EventEnvelope = Exclude<IngestBody, unknown[]>;
/** The server's answer for one envelope of a batch. */
export type EnvelopeAnswer = Success<'/api/v1/webhooks/ingest', 'post'> extends infer A ? (A extends { results: (infer R)[] } ? R : never) : never;
/** The Error shape every non-2xx answer carries. */
export type ErrorBody = Operation<'/api/v1/calls', 'get'>['responses'][400]['content']['application/json'];
