import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallListPage } from '@earshot/contracts';
import { pythonTools, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { expectSessionReadBack, sessionStart, turns } from './voice-session';

/** The official OpenTelemetry Python SDK and its OTLP/HTTP protobuf and OTLP/gRPC exporters, in the suite's own virtual environment. */
const OTEL_PYTHON = ['opentelemetry-sdk==1.45.2', 'opentelemetry-exporter-otlp-proto-http==1.45.2', 'opentelemetry-exporter-otlp-proto-grpc==1.45.2'] as const;
const HARNESS = new URL('./framework_traces.py', import.meta.url).pathname;

interface Sent {
  traceId: string;
  spans: number;
  batches: number;
}

type Protocol = 'http/protobuf' | 'grpc';

/** Where each exporter sends: OTLP/HTTP to the HTTP port, OTLP/gRPC to the gRPC one (4317 in deployments). */
const endpoint = (earshot: TestEarshot, protocol: Protocol) => (protocol === 'grpc' ? earshot.grpcOrigin : earshot.origin);

/**
 * Runs the harness, the exporter configured by the environment variables a
 * LiveKit or Pipecat agent process is given; asynchronously, since the
 * Earshot it sends to listens in this process.
 */
function exportSession(python: string, protocol: Protocol, origin: string, apiKey: string, session: Record<string, unknown>): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [HARNESS], {
      env: {
        PATH: process.env.PATH,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
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
  { protocol: 'http/protobuf' as const, framework: 'livekit', service: 'livekit-support', salt: 1, batchSize: 4, seed: 11 },
  { protocol: 'http/protobuf' as const, framework: 'pipecat', service: 'pipecat-support', salt: 2, batchSize: 5, seed: 23 },
  { protocol: 'grpc' as const, framework: 'livekit', service: 'livekit-support', salt: 3, batchSize: 3, seed: 31 },
  { protocol: 'grpc' as const, framework: 'pipecat', service: 'pipecat-support', salt: 4, batchSize: 6, seed: 43 },
])(
  'the official OTLP exporter ($protocol) sending $framework-shaped traces to a running Earshot',
  ({ protocol, framework, service, salt, batchSize, seed }) => {
    let earshot: TestEarshot;
    let tenant: EarshotTenant;
    let python: string;

    beforeAll(async () => {
      python = `${pythonTools('otel-exporter', OTEL_PYTHON)}/python`;
      earshot = await startEarshot(`otlp-${protocol === 'grpc' ? 'grpc-' : ''}${framework}`);
      tenant = await earshot.createTenant();
    });
    afterAll(async () => earshot?.stop());

    it('lists the call with its five turns, each stage as the spans said, however the spans were batched, ordered or repeated', async () => {
      const expected = turns(salt);
      const startMs = sessionStart(salt);
      const sent = await exportSession(python, protocol, endpoint(earshot, protocol), tenant.apiKey, {
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
  },
);

describe('the official OTLP/gRPC exporter with a key Earshot does not know', () => {
  let earshot: TestEarshot;

  beforeAll(async () => {
    earshot = await startEarshot('otlp-grpc-refused');
  });
  afterAll(async () => earshot?.stop());

  it('reports the export failed, UNAUTHENTICATED, and nothing is kept', async () => {
    const python = `${pythonTools('otel-exporter', OTEL_PYTHON)}/python`;
    const tenant = await earshot.createTenant();
    const unknown = `${tenant.apiKey.slice(0, -6)}000000`;
    const session = {
      framework: 'livekit',
      service: 'refused-agent',
      startMs: sessionStart(5),
      turns: turns(5),
      batchSize: 50,
      seed: 1,
      conversationId: 'conv-5',
    };
    const failure = await exportSession(python, 'grpc', earshot.grpcOrigin, unknown, session).then(
      () => new Error('the export succeeded'),
      (error: Error) => error,
    );
    // The exporter's result (FAILURE, so the harness stops) and the status it logged: not retried, since UNAUTHENTICATED is not retryable.
    expect(failure.message).toContain('the exporter could not send a batch');
    expect(failure.message).toContain('StatusCode.UNAUTHENTICATED');
    const calls = await fetch(`${earshot.origin}/api/v1/calls`, { headers: { authorization: `Bearer ${tenant.apiKey}` } });
    expect(((await calls.json()) as CallListPage).items).toEqual([]);
  });
});
