/** The overview's reads in two GraphQL round trips instead of a dozen REST calls: the range's figures, then per agent. */
import type { Api } from './client';
import type { Alert, Call, Incident, LiveSnapshot, MetricSeries } from './types';

type Points = Pick<MetricSeries, 'points'>;

export interface Overview {
  realtime: Pick<LiveSnapshot, 'concurrentCalls' | 'successRate' | 'p95LatencyMs' | 'endedCalls' | 'windowSeconds'> | null;
  total: Points | null;
  failed: Points | null;
  p50: Points | null;
  p95: Points | null;
  p99: Points | null;
  incidents: { items: Pick<Incident, 'id' | 'title' | 'severity' | 'status' | 'startedAt' | 'affectedAgents'>[] } | null;
  alerts: { items: Pick<Alert, 'id' | 'ruleName' | 'severity' | 'message' | 'firedAt' | 'agentId'>[] } | null;
  calls: { items: Pick<Call, 'agentId'>[] } | null;
}

const series = (alias: string, name: string, agent = '') =>
  `${alias}: metrics(name: "${name}", from: $from, to: $to, interval: $interval${agent}) { points { t value } }`;

const OVERVIEW = `query Overview($from: String, $to: String, $interval: String) {
  realtime { concurrentCalls successRate p95LatencyMs endedCalls windowSeconds }
  ${series('total', 'calls.total')}
  ${series('failed', 'calls.failed')}
  ${series('p50', 'latency.total_ms.p50')}
  ${series('p95', 'latency.total_ms.p95')}
  ${series('p99', 'latency.total_ms.p99')}
  incidents(limit: 100) { items { id title severity status startedAt affectedAgents } }
  alerts(status: "firing", limit: 50) { items { id ruleName severity message firedAt agentId } }
  calls(from: $from, to: $to, limit: 200) { items { agentId } }
}`;

export interface Window {
  from: string;
  to: string;
  interval: string;
}

export const readOverview = (api: Api, window: Window) => api.graphql<Overview>(OVERVIEW, { ...window });

export interface AgentLatency {
  agentId: string;
  p95: Points | null;
  turns: Points | null;
  calls: Points | null;
}

/** Each agent's p95, turn count and calls over the range, as aliased fields of one query. */
export async function readAgentLatency(api: Api, window: Window, agents: readonly string[]): Promise<AgentLatency[]> {
  if (agents.length === 0) return [];
  const variables = Object.fromEntries(agents.map((agent, i) => [`a${i}`, agent]));
  const declared = agents.map((_, i) => `$a${i}: String`).join(', ');
  const fields = agents
    .map((_, i) =>
      [
        series(`p95_${i}`, 'latency.total_ms.p95', `, agentId: $a${i}`),
        series(`turns_${i}`, 'turns.count', `, agentId: $a${i}`),
        series(`calls_${i}`, 'calls.total', `, agentId: $a${i}`),
      ].join('\n  '),
    )
    .join('\n  ');
  const data = await api.graphql<Record<string, Points | null>>(`query Agents($from: String, $to: String, $interval: String, ${declared}) {\n  ${fields}\n}`, {
    ...window,
    ...variables,
  });
  return agents.map((agentId, i) => ({ agentId, p95: data[`p95_${i}`] ?? null, turns: data[`turns_${i}`] ?? null, calls: data[`calls_${i}`] ?? null }));
}
