import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pythonTools } from '@earshot/testing';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: string;
  status: string;
  attributes: Record<string, string>;
  links: { traceId: string; spanId: string }[];
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  endpoint: string;
  spans: ReceivedSpan[];
  stop(): void;
}

/** otlp_receiver.py: OTLP/HTTP decoded by the protocol's own protobuf definitions (opentelemetry-proto). */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bin = pythonTools('otlp-receiver', ['opentelemetry-proto==1.45.2']);
  const child = spawn(`${bin}/python`, ['-u', new URL('./otlp_receiver.py', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const spans: ReceivedSpan[] = [];
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the OTLP receiver exited with ${code}`)));
    lines.once('line', resolve);
  });
  lines.on('line', (line) => spans.push(JSON.parse(line) as ReceivedSpan));
  return { endpoint: `http://127.0.0.1:${port}`, spans, stop: () => void child.kill() };
}
