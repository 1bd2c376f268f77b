import { Transport } from './http.js';
import { Ingest } from './ingest.js';
import { resolveOptions, type ClientOptions } from './options.js';
import { AlertRules } from './resources/alert-rules.js';
import { Alerts } from './resources/alerts.js';
import { Calls } from './resources/calls.js';
import { Deployments } from './resources/deployments.js';
import { Incidents } from './resources/incidents.js';
import { Keys, WebhookSecret } from './resources/keys.js';
import { HealthCheck, Metrics, RealtimeSnapshot, UsageMeters } from './resources/metrics.js';
import { Outcomes } from './resources/outcomes.js';
import { Providers } from './resources/providers.js';
import { AuditLog, Invoices } from './resources/records.js';
import { OwnTenant } from './resources/tenant.js';
import { EventStream, type StreamFilters } from './stream.js';
import { Webhooks } from './webhooks.js';

/** `earshot.stream`: the tenant's events over the WebSocket. */
export class Stream {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** Opens the stream; iterate it with `for await`, `close()` it when done. It resumes by itself after a drop. */
  subscribe(filters: StreamFilters = {}): EventStream {
    return new EventStream(this.baseUrl, this.apiKey, filters);
  }
}

/**
 * The Earshot client: one object, the API's resources as properties.
 *
 * ```ts
 * const earshot = new Earshot(); // EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET
 * for await (const call of earshot.calls.list({ agentId: 'support' })) console.log(call.id);
 * ```
 */
export class Earshot {
  /** The base URL every request goes to, ending in /api/v1. */
  readonly baseUrl: string;
  readonly calls: Calls;
  readonly outcomes: Outcomes;
  readonly incidents: Incidents;
  readonly alerts: Alerts;
  readonly alertRules: AlertRules;
  readonly deployments: Deployments;
  readonly metrics: Metrics;
  readonly realtime: RealtimeSnapshot;
  readonly usage: UsageMeters;
  readonly invoices: Invoices;
  readonly audit: AuditLog;
  readonly keys: Keys;
  readonly webhookSecret: WebhookSecret;
  readonly providers: Providers;
  readonly health: HealthCheck;
  readonly tenant: OwnTenant;
  readonly ingest: Ingest;
  readonly stream: Stream;
  readonly webhooks: Webhooks;

  constructor(options: ClientOptions = {}) {
    const resolved = resolveOptions(options);
    const transport = new Transport(resolved);
    this.baseUrl = resolved.baseUrl;
    this.calls = new Calls(transport);
    this.outcomes = new Outcomes(transport);
    this.incidents = new Incidents(transport);
    this.alerts = new Alerts(transport);
    this.alertRules = new AlertRules(transport);
    this.deployments = new Deployments(transport);
    this.metrics = new Metrics(transport);
    this.realtime = new RealtimeSnapshot(transport);
    this.usage = new UsageMeters(transport);
    this.invoices = new Invoices(transport);
    this.audit = new AuditLog(transport);
    this.keys = new Keys(transport);
    this.webhookSecret = new WebhookSecret(transport);
    this.providers = new Providers(transport);
    this.health = new HealthCheck(transport);
    this.tenant = new OwnTenant(transport);
    this.ingest = new Ingest(transport, resolved.webhookSecret);
    this.stream = new Stream(resolved.baseUrl, resolved.apiKey);
    this.webhooks = new Webhooks(resolved.webhookSecret);
  }
}
