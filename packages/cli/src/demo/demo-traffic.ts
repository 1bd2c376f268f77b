import { CURRENT_EVENT_VERSION, type IncomingEventInput } from '@earshot/contracts';
import { scriptCall, type CallFate, type DemoOutcome, type ScriptedCall } from './call-script';
import { DEMO_AGENTS, DEMO_PROVIDERS } from './demo-agents';
import { Random } from './random';

export interface DemoTrafficOptions {
  seed: number;
  calls: number;
  /** Milliseconds since the epoch: the calls happened before it, a few are still going on. */
  now: number;
  /** How far back the calls start. */
  spanMs?: number;
}

/** One envelope as it is delivered, by the provider that sends it; `copy` marks a duplicate delivery. */
export interface DemoDelivery {
  provider: string;
  envelope: IncomingEventInput;
  copy: boolean;
}

export interface DemoTraffic {
  deliveries: DemoDelivery[];
  outcomes: DemoOutcome[];
  calls: Pick<ScriptedCall, 'provider' | 'providerCallId' | 'agentId' | 'fate'>[];
}

const FATES: readonly (readonly [CallFate, number])[] = [
  ['completed', 62],
  ['handed_to_agent', 5],
  ['transferred', 6],
  ['handed_to_human', 6],
  ['abandoned', 8],
  ['failed', 7],
  ['in_progress', 6],
];

/** What the tenant's own side records: the agents' deployments, an incident, an alert that fired and resolved. */
export const TENANT_PROVIDER = 'earshot-demo';

/** Finished calls start at least this long before `now`, so everything they report (feedback comes minutes later) is in the past. */
const SETTLE_MS = 12 * 60_000;

/**
 * Realistic traffic for a tenant, from a seed: the same seed and `now` give
 * the same deliveries. Providers deliver a little out of order and now and
 * then twice, as real ones do.
 */
export function generateDemoTraffic(options: DemoTrafficOptions): DemoTraffic {
  const random = new Random(options.seed);
  const span = Math.max(options.spanMs ?? 60 * 60_000, SETTLE_MS + 60_000);
  const calls: ScriptedCall[] = [];
  for (let i = 0; i < options.calls; i++) {
    const fate = random.weighted(FATES);
    const startedAt = fate === 'in_progress' ? options.now - random.int(20_000, 150_000) : options.now - random.int(SETTLE_MS, span);
    calls.push(scriptCall(random, { agent: random.pick(DEMO_AGENTS), provider: random.weighted(DEMO_PROVIDERS), fate, startedAt }));
  }
  const inOrder = calls
    .flatMap((c) => c.envelopes.map((envelope) => ({ provider: c.provider, envelope, copy: false })))
    .sort((a, b) => Date.parse(a.envelope.occurred_at) - Date.parse(b.envelope.occurred_at));
  const deliveries = [...tenantRecords(random, options.now - span), ...deliverLikeProviders(random, inOrder)];
  return {
    deliveries,
    outcomes: calls.flatMap((c) => (c.outcome ? [c.outcome] : [])),
    calls: calls.map(({ provider, providerCallId, agentId, fate }) => ({ provider, providerCallId, agentId, fate })),
  };
}

/** About 8% of deliveries arrive a few places late, and about 3% arrive again later. */
function deliverLikeProviders(random: Random, inOrder: readonly DemoDelivery[]): DemoDelivery[] {
  const out = [...inOrder];
  for (let i = 0; i < out.length - 1; i++) {
    if (!random.chance(0.08)) continue;
    const j = Math.min(out.length - 1, i + random.int(1, 5));
    [out[i], out[j]] = [out[j] as DemoDelivery, out[i] as DemoDelivery];
  }
  for (let i = out.length - 1; i >= 0; i--) {
    const delivery = out[i] as DemoDelivery;
    if (delivery.copy || !random.chance(0.03)) continue;
    out.splice(Math.min(out.length, i + random.int(1, 40)), 0, { ...delivery, copy: true });
  }
  return out;
}

function tenantRecords(random: Random, since: number): DemoDelivery[] {
  const envelope = (type: IncomingEventInput['type'], key: string, at: number, data: Record<string, unknown>): DemoDelivery => ({
    provider: TENANT_PROVIDER,
    envelope: { type, version: CURRENT_EVENT_VERSION, idempotency_key: `demo:${key}`, occurred_at: new Date(at).toISOString(), data } as IncomingEventInput,
    copy: false,
  });
  const run = random.hex(6);
  const records = DEMO_AGENTS.flatMap((agent) =>
    agent.versions.map((version, i) =>
      envelope('deployment.recorded', `${run}:deploy:${agent.id}:${version}`, since - (agent.versions.length - i) * 86_400_000, {
        deployment_id: `dep_${agent.id}_${version}`,
        agent: agent.id,
        version,
        deployed_at: new Date(since - (agent.versions.length - i) * 86_400_000).toISOString(),
        previous_version: agent.versions[i - 1] ?? null,
        environment: 'production',
        description: `${agent.id} ${version}`,
        deployed_by: 'ci',
      }),
    ),
  );
  const incident = `inc_${run}`;
  const alert = `alr_${run}`;
  const opened = since + 10 * 60_000;
  records.push(
    envelope('alert.fired', `${run}:alert-fired`, opened, {
      alert_id: alert,
      rule_id: 'rule_p95_latency',
      rule_name: 'p95 turn latency above 1.5 s',
      metric: 'turn.latency.total_ms',
      comparison: 'gt',
      threshold: 1_500,
      value: 2_140,
      window_ms: 300_000,
      severity: 'warning',
      agent_id: 'billing-agent',
      message: 'p95 turn latency is 2.1 s over 5 minutes',
    }),
    envelope('incident.created', `${run}:incident`, opened + 60_000, {
      incident_id: incident,
      title: 'Slow LLM responses on billing-agent',
      severity: 'medium',
      status: 'investigating',
      description: 'The LLM provider is answering slowly for some turns.',
      affected_agents: ['billing-agent'],
      affected_calls: [],
      started_at: new Date(opened).toISOString(),
      opened_by: 'on-call',
    }),
    envelope('incident.updated', `${run}:incident-update`, opened + 25 * 60_000, {
      incident_id: incident,
      status: 'monitoring',
      note: 'Provider rolled back a bad deploy; latency is recovering.',
      updated_by: 'on-call',
    }),
    envelope('alert.resolved', `${run}:alert-resolved`, opened + 30 * 60_000, {
      alert_id: alert,
      rule_id: 'rule_p95_latency',
      metric: 'turn.latency.total_ms',
      value: 1_180,
      fired_at: new Date(opened).toISOString(),
      resolution: 'below threshold for 10 minutes',
      resolved_by: 'rule',
    }),
  );
  return records;
}
