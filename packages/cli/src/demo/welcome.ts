import type { DemoCredentials } from './demo-credentials';

export interface Welcome {
  /** Where the server listens, e.g. `http://127.0.0.1:8080`. */
  origin: string;
  /** Where OTLP/gRPC is taken, when this process runs the gateway. */
  grpcOrigin: string | undefined;
  demo: DemoCredentials | undefined;
  operatorTokenFile: string | undefined;
  dataDir: string;
}

/** What `npm start` prints once it answers: where to go, and what to sign with. */
export function welcomeLines({ origin, grpcOrigin, demo, operatorTokenFile, dataDir }: Welcome): string[] {
  const lines = ['', `  API base URL     ${origin}/api/v1`, `  API explorer     ${origin}/developers/explorer`, `  Health           ${origin}/health`];
  lines.push(`  OTLP/HTTP        ${origin} (OTEL_EXPORTER_OTLP_ENDPOINT; /v1/traces, /v1/metrics)`);
  if (grpcOrigin) lines.push(`  OTLP/gRPC        ${grpcOrigin} (OTEL_EXPORTER_OTLP_PROTOCOL=grpc)`);
  if (demo) {
    lines.push(
      `  Console          ${origin}/console#key=${demo.apiKey}`,
      `  Demo API key     ${demo.apiKey}`,
      `  Webhook secret   ${demo.webhookSecret}`,
      `  (kept in ${dataDir}/demo.json; stream demo calls with: npx earshot demo --calls 200)`,
    );
  }
  if (operatorTokenFile) lines.push(`  Operator token   in ${operatorTokenFile} (Authorization: Bearer <token> on /api/v1/admin/…)`);
  lines.push('');
  return lines;
}
