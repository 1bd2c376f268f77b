import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How far a consumer is behind, per partition: records appended that it has not yet stored. */
export interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

export type LagSource = () => Promise<readonly PartitionLag[]>;

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const FRESHNESS_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * Every metric the process exports at `/metrics`, on one registry per
 * process (the runtime's), so two runtimes in one test process count apart.
 * Labels hold route templates, outcomes, topics and partitions, never a
 * tenant: the series stay few and say nothing of anyone's data.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly lagSources = new Map<string, LagSource>();

  readonly httpRequests = new Counter({
    name: 'earshot_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'earshot_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly ingestEnvelopes = new Counter({
    name: 'earshot_ingest_envelopes_total',
    help: 'Envelopes the intake answered, by outcome: accepted, duplicate, rejected, dead_lettered.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly logAppendedRecords = new Counter({
    name: 'earshot_log_appended_records_total',
    help: 'Records the event log acknowledged, by topic.',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });
  readonly logAppendDuration = new Histogram({
    name: 'earshot_log_append_duration_seconds',
    help: 'Time from an append being handed to the event log to its acknowledgement (or failure), by outcome: ok, error.',
    labelNames: ['outcome'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly projectorRecords = new Counter({
    name: 'earshot_projector_records_total',
    help: 'Records the projector handled, by outcome: applied, duplicate (applied before), skipped (below the stored position), dead_lettered, missing (offsets between the stored position and a batch, never applied).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly projectorFreshness = new Histogram({
    name: 'earshot_projector_freshness_seconds',
    help: 'Time from a record being appended to the log to its effect being committed to the read models.',
    buckets: FRESHNESS_SECONDS,
    registers: [this.registry],
  });
  readonly deadLetters = new Counter({
    name: 'earshot_dead_letters_total',
    help: 'Dead letters written, by source: gateway (envelopes that failed validation), projector (records it could not apply).',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  readonly keyCacheLookups = new Counter({
    name: 'earshot_key_cache_lookups_total',
    help: 'API keys presented, by result: hit (answered from the key cache), miss (looked up in the database).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly rateLimitRefusals = new Counter({
    name: 'earshot_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limit, by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  constructor() {
    const sources = this.lagSources;
    new Gauge({
      name: 'earshot_consumer_lag_records',
      help: 'Records appended to a partition that its consumer (projector, audit) has not yet stored, read when scraped.',
      labelNames: ['consumer', 'topic', 'partition'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [consumer, source] of sources) {
          // A source that cannot answer (the database away) leaves its series out of this scrape rather than failing it.
          const lags = await source().catch(() => []);
          for (const { topic, partition, lag } of lags) this.set({ consumer, topic, partition: String(partition) }, lag);
        }
      },
    });
    // Unprefixed (process_*, nodejs_*), as the usual Node.js dashboards expect them.
    collectDefaultMetrics({ register: this.registry });
  }

  /** Reports a consumer's lag at every scrape until the returned function is called (its stop). */
  watchLag(consumer: string, source: LagSource): () => void {
    this.lagSources.set(consumer, source);
    return () => this.lagSources.delete(consumer);
  }

  /** The exposition, in Prometheus's text format. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
