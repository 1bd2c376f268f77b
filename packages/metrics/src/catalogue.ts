import { METRICS } from './metric-names';
import { METRIC_NAMES, MetricNameSchema, type MetricInterval, type MetricName } from '@earshot/contracts';

type CallStatusMeasure = 'total' | 'completed' | 'failed' | 'in_progress' | 'abandoned' | 'escalated';

/** Where a metric's values come from: the projector's per-minute rollups, or the calls, outcomes and usage read models. */
export type MetricSource =
  | { from: 'rollup-count'; metric: string }
  | { from: 'rollup-mean'; metric: string }
  | { from: 'rollup-quantile'; metric: string; quantile: QuantileName }
  | { from: 'rollup-ratio'; numerator: string; denominator: string }
  | { from: 'calls'; measure: CallStatusMeasure | 'success_rate' | 'quality' }
  | { from: 'outcomes'; measure: 'count' | 'revenue' }
  | { from: 'usage'; measure: 'events_ingested' };

export interface MetricDefinition {
  description: string;
  unit: string;
  source: MetricSource;
}

const LATENCY_PARTS = {
  asr: METRICS.turnLatencyAsr,
  llm: METRICS.turnLatencyLlm,
  tts: METRICS.turnLatencyTts,
  total: METRICS.turnLatencyTotal,
  eou: METRICS.turnLatencyEou,
  stt: METRICS.turnLatencyStt,
  llm_ttft: METRICS.turnLatencyLlmTtft,
  tts_ttfb: METRICS.turnLatencyTtsTtfb,
  e2e: METRICS.turnLatencyE2e,
} as const;
/** The percentiles served, by name; each metric fold stores them too (a column each). */
export const QUANTILES = { p50: 0.5, p95: 0.95, p99: 0.99 } as const;
export type QuantileName = keyof typeof QUANTILES;

function latencyMetrics(): Record<string, MetricDefinition> {
  const out: Record<string, MetricDefinition> = {};
  for (const [part, metric] of Object.entries(LATENCY_PARTS)) {
    for (const quantile of Object.keys(QUANTILES) as QuantileName[]) {
      out[`latency.${part}_ms.${quantile}`] = {
        description: `${quantile} of per-turn ${part} latency (within 1%, from merged sketches)`,
        unit: 'ms',
        source: { from: 'rollup-quantile', metric, quantile },
      };
    }
    out[`latency.${part}_ms.avg`] = { description: `mean per-turn ${part} latency`, unit: 'ms', source: { from: 'rollup-mean', metric } };
  }
  return out;
}

function callMetrics(): Record<string, MetricDefinition> {
  const statuses: CallStatusMeasure[] = ['total', 'completed', 'failed', 'in_progress', 'abandoned', 'escalated'];
  return Object.fromEntries(
    statuses.map((measure) => [
      `calls.${measure}`,
      { description: measure === 'total' ? 'calls started' : `calls started that are now ${measure}`, unit: 'calls', source: { from: 'calls', measure } },
    ]),
  );
}

/**
 * Every name GET /metrics answers, one table. Call counts bucket by when the
 * call started; rollup metrics by the minute the event happened; events
 * ingested by the UTC day Earshot received them.
 */
export const METRIC_CATALOGUE = catalogueOf({
  ...callMetrics(),
  'calls.success_rate': {
    description: 'share of the calls started that ended completed, of those that ended',
    unit: 'ratio',
    source: { from: 'calls', measure: 'success_rate' },
  },
  ...latencyMetrics(),
  'quality.avg': { description: 'mean call quality score (0 to 1) of the calls started', unit: 'score', source: { from: 'calls', measure: 'quality' } },
  'feedback.rating.avg': { description: 'mean customer feedback rating', unit: 'rating', source: { from: 'rollup-mean', metric: METRICS.feedbackRating } },
  'turns.count': { description: 'agent turns', unit: 'turns', source: { from: 'rollup-count', metric: METRICS.turns } },
  'turns.interrupted': { description: 'agent turns the customer interrupted', unit: 'turns', source: { from: 'rollup-count', metric: METRICS.interruptions } },
  'turns.interruption_rate': {
    description: 'share of the agent turns the customer interrupted',
    unit: 'ratio',
    source: { from: 'rollup-ratio', numerator: METRICS.interruptions, denominator: METRICS.turns },
  },
  'tool_calls.failed': { description: 'tool calls that failed', unit: 'tool calls', source: { from: 'rollup-count', metric: METRICS.toolCallFailures } },
  'tool_call.duration_ms.p95': {
    description: 'p95 of tool call duration',
    unit: 'ms',
    source: { from: 'rollup-quantile', metric: METRICS.toolCallDuration, quantile: 'p95' },
  },
  'calls.transferred': { description: 'call.transferred events', unit: 'calls', source: { from: 'rollup-count', metric: METRICS.callsTransferred } },
  'provider.errors': { description: 'provider errors received', unit: 'errors', source: { from: 'rollup-count', metric: METRICS.providerErrors } },
  'outcomes.count': { description: 'outcomes recorded', unit: 'outcomes', source: { from: 'outcomes', measure: 'count' } },
  'revenue.usd': { description: 'revenue of the outcomes recorded', unit: 'USD', source: { from: 'outcomes', measure: 'revenue' } },
  'events.ingested': { description: 'events ingested, per UTC day (daily resolution)', unit: 'events', source: { from: 'usage', measure: 'events_ingested' } },
});

/** The definitions, checked at load against the names the contracts let clients ask for: one each, no more. */
function catalogueOf(definitions: Record<string, MetricDefinition>): Readonly<Record<MetricName, MetricDefinition>> {
  const names: readonly string[] = METRIC_NAMES;
  const missing = names.filter((name) => !definitions[name]);
  const extra = Object.keys(definitions).filter((name) => !names.includes(name));
  if (missing.length > 0 || extra.length > 0)
    throw new Error(`metric catalogue and METRIC_NAMES differ: missing ${missing.join(', ') || 'none'}; not named ${extra.join(', ') || 'none'}`);
  return definitions as Record<MetricName, MetricDefinition>;
}

/** A stored name (an alert rule's) read back: its definition, or undefined for a name the catalogue no longer has. */
export function metricNamed(name: string): MetricDefinition | undefined {
  const known = MetricNameSchema.safeParse(name);
  return known.success ? METRIC_CATALOGUE[known.data] : undefined;
}

export const INTERVAL_MS: Record<MetricInterval, number> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '6h': 21_600_000, '1d': 86_400_000 };

/** The most points a series may have. */
export const MAX_POINTS = 1_000;

/** The finest interval that keeps the series within MAX_POINTS, or undefined when even a day is too fine. */
export function defaultInterval(spanMs: number): MetricInterval | undefined {
  return (Object.entries(INTERVAL_MS) as [MetricInterval, number][]).find(([, ms]) => spanMs / ms <= MAX_POINTS)?.[0];
}

/** Bucket starts from `from` (inclusive) to `to` (exclusive), every interval. */
export function bucketStarts(fromMs: number, toMs: number, intervalMs: number): number[] {
  const out: number[] = [];
  for (let t = fromMs; t < toMs; t += intervalMs) out.push(t);
  return out;
}
