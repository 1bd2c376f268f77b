import type { RequestOptions } from '../http.js';
import type { Health, MetricDefinition, MetricSeries, MetricSeriesParams, LiveSnapshot, Success, Usage, UsageParams } from '../models.js';
import { Resource } from './resource.js';

/** `earshot.metrics`: time series of the tenant's calls. */
export class Metrics extends Resource {
  /** Every metric `series` answers, with what it measures and its unit. */
  async catalogue(options?: RequestOptions): Promise<MetricDefinition[]> {
    return (await this.read<Success<'/api/v1/metrics/catalogue', 'get'>>('/metrics/catalogue', undefined, options)).items;
  }

  /** One metric over time: `name`, `from`, `to`, `interval`, `agentId`. */
  series(params: MetricSeriesParams, options?: RequestOptions): Promise<MetricSeries> {
    return this.read('/metrics', params, options);
  }
}

/** `earshot.realtime`: the live snapshot (concurrent calls, success rate, p95 latency). */
export class RealtimeSnapshot extends Resource {
  /** The snapshot now. */
  async retrieve(options?: RequestOptions): Promise<LiveSnapshot> {
    return (await this.read<Success<'/api/v1/realtime', 'get'>>('/realtime', undefined, options)).live;
  }
}

/** `earshot.usage`: metered usage per day and the current billing period. */
export class UsageMeters extends Resource {
  /** Usage per day (`from`, `to`) and the current period's meters and projected total. */
  retrieve(params: UsageParams = {}, options?: RequestOptions): Promise<Usage> {
    return this.read('/usage', params, options);
  }
}

/** `earshot.health`: whether the service and its database answer (no key needed). */
export class HealthCheck extends Resource {
  /** The service's health; UnavailableError (503) when it is degraded. */
  retrieve(options?: RequestOptions): Promise<Health> {
    return this.transport.request({ method: 'GET', path: '/health', root: true }, options);
  }
}
