import { describe, expect, it } from 'vitest';
import { IncomingEventSchema, PROVIDER_EVENT_TYPES } from '@earshot/contracts';
import { CALL_FATES } from './call-script';
import { DEMO_AGENTS } from './demo-agents';
import { generateDemoTraffic, TENANT_PROVIDER } from './demo-traffic';

const NOW = Date.parse('2026-03-02T12:00:00Z');
const traffic = generateDemoTraffic({ seed: 7, calls: 300, now: NOW });
const providerDeliveries = traffic.deliveries.filter((d) => d.provider !== TENANT_PROVIDER);
const latencies = providerDeliveries.flatMap((d) => {
  if (d.envelope.type !== 'agent.response.generated') return [];
  const { asr_ms, llm_ms, tts_ms, total_ms } = d.envelope.data.latency;
  if (asr_ms == null || llm_ms == null || tts_ms == null || total_ms == null) throw new Error('the demo reports every turn whole, all four parts');
  return [{ asr_ms, llm_ms, tts_ms, total_ms }];
});
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] as number;

describe('demo traffic', () => {
  it('is the same for the same seed and different for another', () => {
    expect(generateDemoTraffic({ seed: 7, calls: 300, now: NOW })).toEqual(traffic);
    expect(generateDemoTraffic({ seed: 8, calls: 300, now: NOW }).calls[0]?.providerCallId).not.toBe(traffic.calls[0]?.providerCallId);
  });

  it('sends only envelopes the ingest endpoint accepts', () => {
    for (const { envelope } of traffic.deliveries) expect(IncomingEventSchema.safeParse(envelope).error).toBeUndefined();
  });

  it('covers the 20 spec event types, call.completed and every fate, agent and several versions', () => {
    expect(new Set(providerDeliveries.map((d) => d.envelope.type))).toEqual(new Set(PROVIDER_EVENT_TYPES));
    expect(new Set(traffic.calls.map((c) => c.fate))).toEqual(new Set(CALL_FATES));
    expect(new Set(traffic.calls.map((c) => c.agentId))).toEqual(new Set(DEMO_AGENTS.map((a) => a.id)));
    const versions = new Set(providerDeliveries.map((d) => `${d.envelope.call?.agent_id}@${d.envelope.call?.agent_version}`));
    expect(versions.size).toBeGreaterThanOrEqual(6);
    expect(new Set(traffic.deliveries.filter((d) => d.provider === TENANT_PROVIDER).map((d) => d.envelope.type))).toEqual(
      new Set(['deployment.recorded', 'incident.created', 'incident.updated', 'alert.fired', 'alert.resolved']),
    );
  });

  it('has multi-turn calls with log-normal latencies: a tight body and a slow tail', () => {
    const turnsPerCall = new Map<string, number>();
    for (const d of providerDeliveries)
      if (d.envelope.type === 'agent.response.generated')
        turnsPerCall.set(d.envelope.call?.provider_call_id ?? '', (turnsPerCall.get(d.envelope.call?.provider_call_id ?? '') ?? 0) + 1);
    expect(Math.max(...turnsPerCall.values())).toBeGreaterThanOrEqual(4);
    const asr = latencies.map((l) => l.asr_ms);
    const total = latencies.map((l) => l.total_ms);
    expect(quantile(asr, 0.5)).toBeGreaterThan(120);
    expect(quantile(asr, 0.5)).toBeLessThan(280);
    expect(quantile(total, 0.99)).toBeGreaterThan(2.5 * quantile(total, 0.5));
    for (const l of latencies) expect(l.total_ms).toBeGreaterThanOrEqual(l.asr_ms + l.llm_ms + l.tts_ms);
  });

  it('fails some tool calls and succeeds most', () => {
    const count = (type: string) => providerDeliveries.filter((d) => d.envelope.type === type && !d.copy).length;
    expect(count('tool.call.failed')).toBeGreaterThan(0);
    expect(count('tool.call.completed')).toBeGreaterThan(5 * count('tool.call.failed'));
    expect(count('tool.call.started')).toBe(count('tool.call.completed') + count('tool.call.failed'));
  });

  it('delivers some envelopes twice and some out of order, like real providers', () => {
    const copies = traffic.deliveries.filter((d) => d.copy);
    expect(copies.length).toBeGreaterThan(0);
    const original = traffic.deliveries.filter((d) => !d.copy);
    for (const copy of copies) expect(original.some((d) => d.envelope.idempotency_key === copy.envelope.idempotency_key)).toBe(true);
    expect(new Set(original.map((d) => d.envelope.idempotency_key)).size).toBe(original.length);
    const times = original.filter((d) => d.provider !== TENANT_PROVIDER).map((d) => Date.parse(d.envelope.occurred_at));
    expect(times.some((t, i) => i > 0 && t < (times[i - 1] as number))).toBe(true);
  });

  it('keeps finished calls in the past and live calls recent', () => {
    for (const d of traffic.deliveries) expect(Date.parse(d.envelope.occurred_at)).toBeLessThanOrEqual(NOW);
    const ended = new Set(providerDeliveries.filter((d) => d.envelope.type === 'call.ended').map((d) => d.envelope.call?.provider_call_id));
    for (const call of traffic.calls.filter((c) => c.fate === 'in_progress')) expect(ended.has(call.providerCallId)).toBe(false);
  });

  it('records outcomes, with revenue, for successful calls only', () => {
    const successful = new Set(traffic.calls.filter((c) => c.fate === 'completed' || c.fate === 'handed_to_agent').map((c) => c.providerCallId));
    expect(traffic.outcomes.length).toBeGreaterThan(0);
    for (const outcome of traffic.outcomes) expect(successful.has(outcome.providerCallId)).toBe(true);
    expect(traffic.outcomes.some((o) => (o.revenueUsd ?? 0) > 0)).toBe(true);
  });
});
