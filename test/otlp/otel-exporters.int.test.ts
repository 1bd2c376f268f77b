import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallDetail, CallListPage } from '@earshot/contracts';
import { pythonTools, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';

/** The official OpenTelemetry Python SDK and OTLP/HTTP protobuf exporter, in the suite's own virtual environment. */
const OTEL_PYTHON = ['opentelemetry-sdk==1.45.2', 'opentelemetry-exporter-otlp-proto-http==1.45.2'] as const;
const HARNESS = new URL('./framework_traces.py', import.meta.url).pathname;

interface Turn {
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

/** Five turns: one interrupted, one calling a tool. */
function turns(salt: number): Turn[] {
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

interface Sent {
  traceId: string;
  spans: number;
  batches: number;
}

/**
 * Runs the harness, the exporter configured by the three environment
 * variables a LiveKit or Pipecat agent process is given; asynchronously, since
 * the Earshot it sends to listens in this process.
 */
function exportSession(python: string, origin: string, apiKey: string, session: Record<string, unknown>): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [HARNESS], {
      env: {
        PATH: process.env.PATH,
        OTEL_EXPORTER_OTLP_ENDPOINT: origin,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer%20${apiKey}`,
        OTEL_SERVICE_NAME: String(session.service),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as Sent);
      else reject(new Error(`the OpenTelemetry harness failed (${code}): ${stderr}`));
    });
    child.stdin.end(JSON.stringify(session));
  });
}

describe.each([
  { framework: 'livekit', service: 'livekit-support', salt: 1, batchSize: 4, seed: 11 },
  { framework: 'pipecat', service: 'pipecat-support', salt: 2, batchSize: 5, seed: 23 },
])('the official OTLP/HTTP exporter sending $framework-shaped traces to a running Earshot', ({ framework, service, salt, batchSize, seed }) => {
  let earshot: TestEarshot;
  let tenant: EarshotTenant;
  let python: string;

  beforeAll(async () => {
    python = `${pythonTools('otel-exporter', OTEL_PYTHON)}/python`;
    earshot = await startEarshot(`otlp-${framework}`);
    tenant = await earshot.createTenant();
  });
  afterAll(async () => earshot?.stop());

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(new URL(path, earshot.origin), { headers: { authorization: `Bearer ${tenant.apiKey}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  it('lists the call with its five turns, each stage as the spans said, however the spans were batched, ordered or repeated', async () => {
    const expected = turns(salt);
    const startMs = Date.now() - 10 * 60_000;
    const sent = await exportSession(python, earshot.origin, tenant.apiKey, {
      framework,
      service,
      startMs,
      turns: expected,
      batchSize,
      seed,
      conversationId: `conv-${salt}`,
    });
    expect(sent.batches).toBeGreaterThan(3);

    const call = await vi.waitFor(
      async () => {
        const page = await api<CallListPage>(`/api/v1/calls?agentId=${service}`);
        expect(page.items).toHaveLength(1);
        const listed = page.items[0];
        expect(listed).toMatchObject({ providerCallId: sent.traceId, provider: framework, turnCount: 5, interruptions: 1, toolCallCount: 1 });
        const detail = await api<CallDetail>(`/api/v1/calls/${listed?.id}`);
        expect(detail.call.turns).toHaveLength(5);
        expect(detail.call.turns.every((t) => t.breakdown.e2eMs !== null && t.breakdown.ttsTtfbMs !== null && t.breakdown.llmTtftMs !== null)).toBe(true);
        return detail.call;
      },
      { timeout: 30_000, interval: 500 },
    );

    expect(call.status).toBe('completed');
    expect(call.startedAt).toBe(new Date(startMs).toISOString());
    const breakdowns = [...call.turns].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt)).map((t) => ({ ...t.breakdown, interrupted: t.interrupted }));
    expect(breakdowns).toEqual(
      expected.map((t) => ({
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
    for (const t of expected) expect(said).toEqual(expect.arrayContaining([`customer: ${t.user}`, `agent: ${t.agent}`]));
  });
});
