import { expect, vi } from 'vitest';
import type { CallDetail, CallListPage, MetricSeries } from '@earshot/contracts';

/** One turn of a voice session as a framework measured it. */
export interface Turn {
  /** Seconds, as the frameworks report them. */
  eou: number;
  stt: number;
  ttft: number;
  ttfb: number;
  e2e: number;
  interrupted: boolean;
  user: string;
  agent: string;
  tool?: { id: string; name: string; arguments: Record<string, string>; output: Record<string, string> };
}

/** Five turns: one interrupted, one calling a tool; `salt` keeps sessions of one run apart. */
export function turns(salt: number): Turn[] {
  return [0, 1, 2, 3, 4].map((n) => ({
    eou: 0.2 + n * 0.011 + salt / 1000,
    stt: 0.15 + n * 0.007,
    ttft: 0.35 + n * 0.023,
    ttfb: 0.12 + n * 0.005,
    e2e: 0.95 + n * 0.061 + salt / 1000,
    interrupted: n === 3,
    user: `Question ${n} about order 10${n}`,
    agent: `Answer ${n}: order 10${n} ships tomorrow.`,
    ...(n === 2 ? { tool: { id: `call_${salt}_${n}`, name: 'lookup_order', arguments: { order: `10${n}` }, output: { status: 'shipped' } } } : {}),
  }));
}

const ms = (seconds: number) => Math.round(seconds * 1000);

/** When a session starts: a day of its own (by `salt`), so one daily metric bucket holds it whole. */
export function sessionStart(salt: number): number {
  return Date.parse('2026-03-02T10:00:00Z') + salt * 86_400_000;
}

const STAGES = { eou: 'eou', stt: 'stt', llm_ttft: 'ttft', tts_ttfb: 'ttfb', e2e: 'e2e' } as const;

interface SentSession {
  origin: string;
  apiKey: string;
  /** The agent: the exporting process's service.name. */
  service: string;
  framework: string;
  traceId: string;
  startMs: number;
  turns: readonly Turn[];
  /**
   * Seconds to first byte of every synthesis sent, where a turn had more than
   * one (Pipecat synthesizes sentence by sentence): /metrics samples each,
   * while the turn's breakdown keeps its first. Defaults to one a turn.
   */
  syntheses?: readonly number[];
}

/**
 * Reads the session back through the API, as a customer would: the call in
 * GET /api/v1/calls, in its detail five turns whose stages are what the spans
 * said, in ms, with the transcript of both sides; and GET /metrics of the
 * agent on the session's day: each stage's mean and median, and the
 * interruption rate.
 */
export async function expectSessionReadBack(sent: SentSession): Promise<void> {
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(new URL(path, sent.origin), { headers: { authorization: `Bearer ${sent.apiKey}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const call = await vi.waitFor(
    async () => {
      const page = await api<CallListPage>(`/api/v1/calls?agentId=${sent.service}`);
      expect(page.items).toHaveLength(1);
      const listed = page.items[0];
      expect(listed).toMatchObject({ providerCallId: sent.traceId, provider: sent.framework, turnCount: 5, interruptions: 1, toolCallCount: 1 });
      const detail = await api<CallDetail>(`/api/v1/calls/${listed?.id}`);
      expect(detail.call.turns).toHaveLength(5);
      expect(detail.call.turns.every((t) => t.breakdown.e2eMs !== null && t.breakdown.ttsTtfbMs !== null && t.breakdown.llmTtftMs !== null)).toBe(true);
      return detail.call;
    },
    { timeout: 30_000, interval: 500 },
  );

  expect(call.status).toBe('completed');
  expect(call.startedAt).toBe(new Date(sent.startMs).toISOString());
  const breakdowns = [...call.turns].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt)).map((t) => ({ ...t.breakdown, interrupted: t.interrupted }));
  expect(breakdowns).toEqual(
    sent.turns.map((t) => ({
      eouMs: ms(t.eou),
      sttMs: ms(t.stt),
      llmTtftMs: ms(t.ttft),
      ttsTtfbMs: ms(t.ttfb),
      e2eMs: ms(t.e2e),
      unattributedMs: ms(t.e2e) - ms(t.eou) - ms(t.ttft) - ms(t.ttfb),
      interrupted: t.interrupted,
    })),
  );
  const said = call.transcript.map((s) => `${s.speaker}: ${s.text}`);
  for (const t of sent.turns) expect(said).toEqual(expect.arrayContaining([`customer: ${t.user}`, `agent: ${t.agent}`]));

  const day = new Date(sent.startMs).toISOString().slice(0, 10);
  const metric = async (name: string) => {
    const series = await api<MetricSeries>(`/api/v1/metrics?name=${name}&agentId=${sent.service}&interval=1d&from=${day}T00:00:00Z&to=${day}T23:59:59Z`);
    expect(series.points).toHaveLength(1);
    return series.points[0]?.value;
  };
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  for (const [stage, field] of Object.entries(STAGES)) {
    const values = field === 'ttfb' && sent.syntheses ? sent.syntheses.map(ms) : sent.turns.map((t) => ms(t[field]));
    expect(await metric(`latency.${stage}_ms.avg`), stage).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 3);
    const median = sorted(values)[Math.floor((values.length - 1) / 2)] ?? 0;
    // The sketch's 1% relative accuracy, and the rounding to whole ms of what the route serves.
    expect(Math.abs(((await metric(`latency.${stage}_ms.p50`)) ?? 0) - median), stage).toBeLessThanOrEqual(median * 0.01 + 0.5);
  }
  expect(await metric('turns.interruption_rate')).toBeCloseTo(0.2, 6);
}
