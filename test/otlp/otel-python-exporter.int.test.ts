import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonTools, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { expectSessionReadBack, sessionStart, turns } from './voice-session';

/** The official OpenTelemetry Python SDK and OTLP/HTTP protobuf exporter, in the suite's own virtual environment. */
const OTEL_PYTHON = ['opentelemetry-sdk==1.45.2', 'opentelemetry-exporter-otlp-proto-http==1.45.2'] as const;
const HARNESS = new URL('./framework_traces.py', import.meta.url).pathname;

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

  it('lists the call with its five turns, each stage as the spans said, however the spans were batched, ordered or repeated', async () => {
    const expected = turns(salt);
    const startMs = sessionStart(salt);
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

    // The harness's Pipecat turns synthesize two sentences, the second 0.4 s slower to its first byte.
    const syntheses = framework === 'pipecat' ? expected.flatMap((t) => [t.ttfb, t.ttfb + 0.4]) : undefined;
    await expectSessionReadBack({
      origin: earshot.origin,
      apiKey: tenant.apiKey,
      service,
      framework,
      traceId: sent.traceId,
      startMs,
      turns: expected,
      ...(syntheses ? { syntheses } : {}),
    });
  });
});
