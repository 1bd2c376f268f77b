/**
 * Compile-time check (run by `npm run typecheck`): every named model still
 * resolves in the regenerated types. A route whose shape moved would make
 * its name `never` silently; here it fails the typecheck instead.
 */
import type * as M from '../src/models.js';

type Resolves<T> = [T] extends [never] ? false : true;
type Holds<T extends true> = T;

export type EveryModelResolves = [
  Holds<Resolves<M.WriteResult>>,
  Holds<Resolves<M.Call>>,
  Holds<Resolves<M.CallDetail>>,
  Holds<Resolves<M.CallListParams['agentId']>>,
  Holds<Resolves<M.CallEraseParams['reason']>>,
  Holds<Resolves<M.CallErased>>,
  Holds<Resolves<M.Outcome>>,
  Holds<Resolves<M.OutcomeCreateParams>>,
  Holds<Resolves<M.Incident>>,
  Holds<Resolves<M.IncidentCreateParams>>,
  Holds<Resolves<M.IncidentUpdateParams>>,
  Holds<Resolves<M.Alert>>,
  Holds<Resolves<M.AlertNotification>>,
  Holds<Resolves<M.AlertWebhook>>,
  Holds<Resolves<M.AlertWebhookParams>>,
  Holds<Resolves<M.AlertRule>>,
  Holds<Resolves<M.AlertRuleCreateParams>>,
  Holds<Resolves<M.AlertRuleUpdateParams>>,
  Holds<Resolves<M.Deployment>>,
  Holds<Resolves<M.DeploymentCreateParams>>,
  Holds<Resolves<M.DeploymentImpact>>,
  Holds<Resolves<M.MetricDefinition>>,
  Holds<Resolves<M.MetricSeries>>,
  Holds<Resolves<M.MetricSeriesParams['name']>>,
  Holds<Resolves<M.LiveSnapshot>>,
  Holds<Resolves<M.Usage>>,
  Holds<Resolves<M.UsageDay>>,
  Holds<Resolves<M.Invoice>>,
  Holds<Resolves<M.AuditEntry>>,
  Holds<Resolves<M.APIKey>>,
  Holds<Resolves<M.KeyCreateParams>>,
  Holds<Resolves<M.KeyWithSecret>>,
  Holds<Resolves<M.KeyRotateParams>>,
  Holds<Resolves<M.WebhookSecretRotateParams>>,
  Holds<Resolves<M.WebhookSecretRotation>>,
  Holds<Resolves<M.Tenant>>,
  Holds<Resolves<M.ProviderConnection>>,
  Holds<Resolves<M.ProviderConnectionListParams['provider']>>,
  Holds<Resolves<M.ProviderConnectionCreateParams>>,
  Holds<Resolves<M.ProviderConnectionIssued>>,
  Holds<Resolves<M.ProviderCredentialRotateParams>>,
  Holds<Resolves<M.ProviderConnectionDeleted>>,
  Holds<Resolves<M.Health>>,
  Holds<Resolves<M.EventEnvelope>>,
  Holds<Resolves<M.EnvelopeAnswer>>,
  Holds<Resolves<M.ErrorBody>>,
];
