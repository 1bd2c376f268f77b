import { expect, vi } from 'vitest';
import type { CallDetail, CallListPage } from '@earshot/contracts';

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

interface SentSession {
  origin: string;
  apiKey: string;
  /** The agent: the exporting process's service.name. */
  service: string;
  framework: string;
  traceId: string;
  startMs: number;
  turns: readonly Turn[];
}

/**
 * Reads the session back through the API, as a customer would: the call in
 * GET /api/v1/calls, and in its detail five turns whose stages are what the
 * spans said, in ms, with the transcript of both sides.
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
}
