import { z } from 'zod';
import { UsagePeriodSchema } from './billing';
import { listPageSchema, pagingQuery, queryTime } from './list';
import { storedText } from '../text';

/** Bucket widths of a metric series. */
export const METRIC_INTERVALS = ['1m', '5m', '15m', '1h', '6h', '1d'] as const;
export type MetricInterval = (typeof METRIC_INTERVALS)[number];

/** The v1 parts, then the stages voice frameworks measure per turn (end of utterance, transcription, model and synthesis first output, end to end). */
const LATENCY_PARTS = ['asr', 'llm', 'total', 'tts', 'eou', 'stt', 'llm_ttft', 'tts_ttfb', 'e2e'] as const;
const LATENCY_STATS = ['avg', 'p50', 'p95', 'p99'] as const;
const LATENCY_METRICS = LATENCY_PARTS.flatMap((part) => LATENCY_STATS.map((stat) => `latency.${part}_ms.${stat}` as const));

/** Every metric GET /metrics answers and an alert rule may watch; the query service's catalogue defines each. */
export const METRIC_NAMES = [
  'calls.abandoned',
  'calls.completed',
  'calls.escalated',
  'calls.failed',
  'calls.in_progress',
  'calls.success_rate',
  'calls.total',
  'calls.transferred',
  'events.ingested',
  'feedback.rating.avg',
  ...LATENCY_METRICS,
  'outcomes.count',
  'provider.errors',
  'quality.avg',
  'revenue.usd',
  'tool_call.duration_ms.p95',
  'tool_calls.failed',
  'turns.count',
  'turns.interrupted',
  'turns.interruption_rate',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
export const MetricNameSchema = z.enum(METRIC_NAMES);

export const MetricQuerySchema = z.object({
  name: MetricNameSchema,
  from: queryTime
    .optional()
    .describe(
      'defaults to 24 hours before `to`; moved back to the start of its bucket, as buckets lie on the interval’s UTC grid (days start at 00:00 UTC, hours on the hour); a range of more than 1,000 points at the interval answers its last 1,000 (the answer’s `from` says where they start), one from `to` on answers none',
    ),
  to: queryTime.optional().describe('defaults to now'),
  interval: z.enum(METRIC_INTERVALS).optional().describe('defaults to the finest that keeps the series within 1,000 points'),
  agentId: storedText(200).min(1).optional().describe('one agent’s series; a metric not kept per agent (events.ingested) answers null points'),
});

export const MetricSeriesSchema = z.object({
  ok: z.literal(true),
  name: z.string(),
  description: z.string(),
  unit: z.string(),
  interval: z.enum(METRIC_INTERVALS),
  from: z.string(),
  to: z.string(),
  agentId: z.string().nullable(),
  /** One point per bucket start; null where nothing was measured. */
  points: z.array(z.object({ t: z.string(), value: z.number().nullable() })),
});
export type MetricSeries = z.infer<typeof MetricSeriesSchema>;

/** GET /metrics/catalogue: every name GET /metrics answers, with what it measures and its unit. */
export const MetricCatalogueSchema = z.object({
  ok: z.literal(true),
  items: z.array(z.object({ name: MetricNameSchema, description: z.string(), unit: z.string() })),
});

/** An agent the tenant's calls or deployments name: its calls so far and the version last deployed. */
export const AgentSchema = z.object({
  id: z.string(),
  calls: z.number().int(),
  lastCallAt: z.string().nullable(),
  version: z.string().nullable().describe('the version of its latest deployment; null when none was recorded'),
  deployedAt: z.string().nullable(),
});
export const AgentListQuerySchema = pagingQuery(50, { value: 'none', id: 'text' });
export const AgentListSchema = listPageSchema(AgentSchema);

/** The spec's Live snapshot, with the window it covers. */
export const LiveSnapshotSchema = z.object({
  ok: z.literal(true),
  live: z.object({
    concurrentCalls: z.number().int(),
    successRate: z.number(),
    p95LatencyMs: z.number().int(),
    endedCalls: z.number().int(),
    windowSeconds: z.number().int(),
    asOf: z.string(),
  }),
});

export const UsageMeterSchema = z.object({
  day: z.string(),
  eventsIngested: z.number().int(),
  calls: z.number().int(),
  callMinutes: z.number(),
  apiRequests: z.number().int(),
  storedBytes: z.number().int(),
});
export const UsageQuerySchema = pagingQuery(31, { value: 'none', id: 'day' }).extend({ from: queryTime.optional(), to: queryTime.optional() });
/** The meters per day, and the current billing period priced by the tenant's plan. */
export const UsageListSchema = listPageSchema(UsageMeterSchema).extend({ period: UsagePeriodSchema });

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ kind: z.enum(['apiKey', 'operator']), keyId: z.string().nullable(), keyName: z.string().nullable() }),
  action: z.string(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export const AuditQuerySchema = pagingQuery(50, { value: 'time', id: 'text' }).extend({ action: storedText(100).min(1).optional() });
export const AuditListSchema = listPageSchema(AuditEntrySchema);

const dependency = z.object({ connected: z.boolean(), latencyMs: z.number().int() });

/** The spec's Health: every dependency of this process by name, the database always. */
export const HealthSchema = z.looseObject({ ok: z.literal(true), service: z.string(), database: dependency });
/** 503: the Error shape, still naming each dependency and whether it answered. */
export const HealthDegradedSchema = z.looseObject({ ok: z.literal(false), error: z.string(), code: z.string(), service: z.string(), database: dependency });
