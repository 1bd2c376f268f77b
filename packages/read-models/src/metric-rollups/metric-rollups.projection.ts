import type { ProjectedEvent } from '../projected-event';
import type { CounterProjection, Row } from '../projection';
import { METRICS } from '@earshot/metrics';

/** The minute an event belongs to: when it happened, so late events land where they belong and a replay rebuilds the same rollups. */
function minuteOf(occurredAt: string): string {
  return `${occurredAt.slice(0, 16)}:00.000Z`;
}

function measured(agentId: string, minute: string, metric: string, value: number): Row {
  return { agent_id: agentId, minute, metric, count: 1, sum: value, min: value, max: value, sketch: value };
}

function counted(agentId: string, minute: string, metric: string): Row {
  return { agent_id: agentId, minute, metric, count: 1, sum: null, min: null, max: null, sketch: null };
}

function rollupRows({ event }: ProjectedEvent): Row[] {
  const agent = event.call?.agent_id ?? '';
  const minute = minuteOf(event.occurred_at);
  switch (event.type) {
    case 'agent.response.generated': {
      const d = event.data;
      const { latency } = d;
      // A turn reported in parts counts once: from the report carrying its total or its interruption flag (the turn's own span).
      const reportsTheTurn = latency.total_ms !== null || d.interrupted !== null;
      const samples: [string, number | null][] = [
        [METRICS.turnLatencyTotal, latency.total_ms],
        [METRICS.turnLatencyAsr, latency.asr_ms],
        [METRICS.turnLatencyLlm, latency.llm_ms],
        [METRICS.turnLatencyTts, latency.tts_ms],
        [METRICS.turnLatencyEou, d.eou_delay_ms],
        [METRICS.turnLatencyStt, d.transcription_delay_ms],
        [METRICS.turnLatencyLlmTtft, d.llm_ttft_ms],
        [METRICS.turnLatencyTtsTtfb, d.tts_ttfb_ms],
        [METRICS.turnLatencyE2e, d.e2e_ms],
      ];
      return [
        ...(reportsTheTurn ? [counted(agent, minute, METRICS.turns)] : []),
        ...samples.flatMap(([metric, value]) => (value === null ? [] : [measured(agent, minute, metric, value)])),
        ...(d.interrupted === true ? [counted(agent, minute, METRICS.interruptions)] : []),
      ];
    }
    case 'tool.call.completed':
      return event.data.duration_ms === null ? [] : [measured(agent, minute, METRICS.toolCallDuration, event.data.duration_ms)];
    case 'tool.call.failed':
      return [
        counted(agent, minute, METRICS.toolCallFailures),
        ...(event.data.duration_ms === null ? [] : [measured(agent, minute, METRICS.toolCallDuration, event.data.duration_ms)]),
      ];
    case 'call.started':
      return [counted(agent, minute, METRICS.callsStarted)];
    case 'call.ended':
      return [counted(agent, minute, METRICS.callsEnded)];
    case 'call.failed':
      return [counted(agent, minute, METRICS.callsFailed)];
    case 'call.transferred':
      return [counted(agent, minute, METRICS.callsTransferred)];
    case 'provider.error.received':
      return [counted(agent, minute, METRICS.providerErrors)];
    case 'customer.feedback.submitted':
      return event.data.rating === null ? [] : [measured(agent, minute, METRICS.feedbackRating, event.data.rating)];
    case 'call.ringing':
    case 'call.answered':
    case 'call.completed':
    case 'audio.stream.started':
    case 'audio.stream.stopped':
    case 'transcript.partial':
    case 'transcript.final':
    case 'tool.call.started':
    case 'workflow.state.changed':
    case 'handoff.initiated':
    case 'handoff.completed':
    case 'recording.available':
    case 'outcome.recorded':
    case 'incident.created':
    case 'incident.updated':
    case 'deployment.recorded':
    case 'alert.fired':
    case 'alert.resolved':
    case 'alert.rule.changed':
    case 'invoice.issued':
    case 'billing.plan.changed':
    case 'call.abandoned':
      return [];
    default: {
      const unhandled: never = event;
      throw new Error(`metric rollups: unhandled event ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * Per tenant, agent, metric, minute and shard: count, sum, min, max and a latency sketch (each row a sample of it);
 * p50/p95/p99 over any range come from merging them.
 */
export const metricRollups: CounterProjection = {
  kind: 'counter',
  name: 'metric-rollups',
  version: 1,
  table: 'metric_rollups',
  key: ['agent_id', 'metric', 'minute', 'shard'],
  sharded: true,
  handles: [
    'agent.response.generated',
    'tool.call.completed',
    'tool.call.failed',
    'call.started',
    'call.ended',
    'call.failed',
    'call.transferred',
    'provider.error.received',
    'customer.feedback.submitted',
  ],
  merge: { count: 'sum', sum: 'sum', min: 'min', max: 'max', sketch: 'sketch' },
  rows: rollupRows,
};
