/**
 * Compile-time check (run by `npm run typecheck`): every named model still
 * resolves in the regenerated types. A route whose shape moved would make
 * its name `never` silently; here it fails the typecheck instead.
 */
import type * as M from '../src/models.js';

type Resolves<T> = [T] extends [never] ? false : true;
type Holds<T extends true> = T;

export type EveryModelResolves = [
  Holds<Resolves<M.AcceptedWrite>>,
  Holds<Resolves<M.Call>>,
  Holds<Resolves<M.CallDetail>>,
  Holds<Resolves<M.CallListParams['agentId']>>,
  Holds<Resolves<M.Outcome>>,
  Holds<Resolves<M.OutcomeInput>>,
  Holds<Resolves<M.Incident>>,
  Holds<Resolves<M.IncidentInput>>,
  Holds<Resolves<M.IncidentChange>>,
  Holds<Resolves<M.Alert>>,
  Holds<Resolves<M.AlertNotification>>,
  Holds<Resolves<M.AlertWebhook>>,
  Holds<Resolves<M.AlertWebhookTarget>>,
  Holds<Resolves<M.AlertRule>>,
  Holds<Resolves<M.AlertRuleInput>>,
  Holds<Resolves<M.AlertRuleChange>>,
  Holds<Resolves<M.Deployment>>,
  Holds<Resolves<M.DeploymentInput>>,
  Holds<Resolves<M.DeploymentImpact>>,
  Holds<Resolves<M.MetricDefinition>>,
  Holds<Resolves<M.MetricSeries>>,
  Holds<Resolves<M.MetricSeriesParams['name']>>,
  Holds<Resolves<M.Realtime>>,
  Holds<Resolves<M.Usage>>,
  Holds<Resolves<M.UsageDay>>,
  Holds<Resolves<M.Invoice>>,
  Holds<Resolves<M.AuditEntry>>,
  Holds<Resolves<M.ApiKey>>,
  Holds<Resolves<M.ApiKeyInput>>,
  Holds<Resolves<M.ApiKeyWithSecret>>,
  Holds<Resolves<M.KeyRotation>>,
  Holds<Resolves<M.WebhookSecretRotation>>,
  Holds<Resolves<M.RotatedWebhookSecret>>,
  Holds<Resolves<M.Health>>,
  Holds<Resolves<M.EventEnvelope>>,
  Holds<Resolves<M.EnvelopeAnswer>>,
  Holds<Resolves<M.ErrorBody>>,
];
