/** The metric catalogue grouped for people; the types below fail to compile if it drifts from the API's list. */
import type { MetricName } from './types';

export const PERCENTILES = ['p50', 'p95', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];
type Stat = Percentile | 'avg';

/** Measured as distributions: asked as `<id>.p50`, `.p95`, `.p99` or `.avg`. */
const DISTRIBUTIONS = {
  'latency.total_ms': 'Turn latency (total)',
  'latency.asr_ms': 'Speech-to-text latency',
  'latency.llm_ms': 'LLM latency',
  'latency.tts_ms': 'Text-to-speech latency',
  'latency.eou_ms': 'End-of-utterance delay',
  'latency.stt_ms': 'Transcription delay',
  'latency.llm_ttft_ms': 'LLM time to first token',
  'latency.tts_ttfb_ms': 'Text-to-speech time to first byte',
  'latency.e2e_ms': 'End-to-end turn latency',
} as const;

const SINGLES = {
  'calls.total': 'Calls',
  'calls.completed': 'Calls completed',
  'calls.failed': 'Calls failed',
  'calls.abandoned': 'Calls abandoned',
  'calls.escalated': 'Calls escalated',
  'calls.transferred': 'Calls transferred',
  'calls.in_progress': 'Calls in progress',
  'calls.success_rate': 'Success rate',
  'turns.count': 'Turns',
  'turns.interrupted': 'Turns interrupted',
  'turns.interruption_rate': 'Interruption rate',
  'tool_calls.failed': 'Tool calls failed',
  'tool_call.duration_ms.p95': 'Tool call duration p95',
  'provider.errors': 'Provider errors',
  'events.ingested': 'Events ingested',
  'quality.avg': 'Quality (mean)',
  'feedback.rating.avg': 'Feedback rating (mean)',
  'outcomes.count': 'Outcomes',
  'revenue.usd': 'Revenue',
} as const satisfies Partial<Record<MetricName, string>>;

type Distribution = keyof typeof DISTRIBUTIONS;
type Listed = `${Distribution}.${Stat}` | keyof typeof SINGLES;
type Assert<T extends true> = T;
/** Compiles only while the catalogue above names exactly the metrics the API serves. */
type _CatalogueMatchesApi = Assert<[Exclude<MetricName, Listed>, Exclude<Listed, MetricName>] extends [never, never] ? true : false>;

export interface MetricFamily {
  id: Distribution | keyof typeof SINGLES;
  label: string;
  distribution: boolean;
}

export const METRIC_FAMILIES: MetricFamily[] = [
  ...Object.entries(DISTRIBUTIONS).map(([id, label]) => ({ id: id as Distribution, label, distribution: true })),
  ...Object.entries(SINGLES).map(([id, label]) => ({ id: id as keyof typeof SINGLES, label, distribution: false })),
];

export const familyOf = (id: string | null): MetricFamily => METRIC_FAMILIES.find((f) => f.id === id) ?? (METRIC_FAMILIES[0] as MetricFamily);

/** The API's name for a family and statistic. */
export function metricName(family: MetricFamily, stat: Stat): MetricName {
  return family.distribution ? (`${family.id as Distribution}.${stat}` satisfies Listed) : (family.id as keyof typeof SINGLES);
}
