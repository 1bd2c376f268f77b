/** The resources as the console reads them, all taken from the generated OpenAPI types (schema.d.ts), never written by hand. */
import type { paths } from '@earshot/sdk';

type JsonBody<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
/** The body of an operation's success response (200 or 201). */
type Ok<Operation> = Operation extends { responses: infer R }
  ? R extends { 200: infer S }
    ? JsonBody<S>
    : R extends { 201: infer S }
      ? JsonBody<S>
      : never
  : never;
type QueryOf<Operation> = Operation extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
export type BodyOf<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

type CallPage = Ok<paths['/api/v1/calls']['get']>;
export type Call = CallPage['items'][number];
export type CallQuery = QueryOf<paths['/api/v1/calls']['get']>;
export type CallStatus = NonNullable<CallQuery['status']>;
export type CallSort = NonNullable<CallQuery['sort']>;
export type CallDetail = Ok<paths['/api/v1/calls/{id}']['get']>['call'];
export type Turn = CallDetail['turns'][number];
export type TraceReference = CallDetail['traces'][number];
export type Outcome = Ok<paths['/api/v1/outcomes']['get']>['items'][number];

export type MetricSeries = Ok<paths['/api/v1/metrics']['get']>;
export type MetricQuery = QueryOf<paths['/api/v1/metrics']['get']>;
export type MetricName = MetricQuery['name'];
export type MetricInterval = NonNullable<MetricQuery['interval']>;
export type LiveSnapshot = Ok<paths['/api/v1/realtime']['get']>['live'];

export type Incident = Ok<paths['/api/v1/incidents']['get']>['items'][number];
export type IncidentChange = BodyOf<paths['/api/v1/incidents/{id}']['patch']>;
export type Alert = Ok<paths['/api/v1/alerts']['get']>['items'][number];
export type AlertRule = Ok<paths['/api/v1/alerts/rules']['get']>['items'][number];
export type NewAlertRule = BodyOf<paths['/api/v1/alerts/rules']['post']>;
export type AlertRuleChange = BodyOf<paths['/api/v1/alerts/rules/{id}']['patch']>;

export type DeploymentImpact = Ok<paths['/api/v1/deployments/{id}/impact']['get']>;

export type ApiKey = Ok<paths['/api/v1/keys']['get']>['items'][number];
export type Scope = ApiKey['scopes'][number];
export type NewApiKey = BodyOf<paths['/api/v1/keys']['post']>;
