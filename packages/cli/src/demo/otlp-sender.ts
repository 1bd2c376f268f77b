import { OTLP_MESSAGES } from '@earshot/otlp';
import type { OtlpExport } from './otlp-sessions';

export interface OtlpDemoSummary {
  requests: number;
  spans: number;
  /** Spans the answers' partial_success counted as rejected. */
  rejected: number;
  /** Answers of 429, each waited out (Retry-After) and the export sent again. */
  rateLimited: number;
  seconds: number;
}

/** Under the 120 ingest requests a minute a tenant may make, and its 5,000 events (here spans) a minute. */
const REQUESTS_PER_SECOND = 1.5;
const SPANS_PER_SECOND = 70;
const MAX_TRIES = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rejectedSpans(body: Uint8Array): number {
  if (body.length === 0) return 0;
  const answer = OTLP_MESSAGES.traceResponse.toObject(OTLP_MESSAGES.traceResponse.decode(body), { longs: String }) as {
    partialSuccess?: { rejectedSpans?: string };
  };
  return Number(answer.partialSuccess?.rejectedSpans ?? 0);
}

/**
 * Posts the exports to `POST /v1/traces` as an OTLP/HTTP protobuf exporter
 * does (the key as `Authorization: Bearer`), paced under the tenant's limits;
 * a 429 or 503 is waited out and the same export sent again, as exporters
 * retry (its spans' ids make that safe).
 */
export async function sendOtlpExports(
  target: { url: string; apiKey: string },
  exports: readonly OtlpExport[],
  onProgress?: (sent: number, total: number) => void,
): Promise<OtlpDemoSummary> {
  const started = performance.now();
  const summary: OtlpDemoSummary = { requests: 0, spans: 0, rejected: 0, rateLimited: 0, seconds: 0 };
  let nextAt = performance.now();
  for (const [index, exported] of exports.entries()) {
    const wait = nextAt - performance.now();
    if (wait > 0) await sleep(wait);
    nextAt = Math.max(nextAt, performance.now()) + Math.max(exported.spans / SPANS_PER_SECOND, 1 / REQUESTS_PER_SECOND) * 1_000;
    for (let attempt = 1; ; attempt++) {
      summary.requests += 1;
      const response = await fetch(new URL('/v1/traces', target.url), {
        method: 'POST',
        body: exported.body,
        headers: { 'content-type': 'application/x-protobuf', authorization: `Bearer ${target.apiKey}` },
      });
      const body = new Uint8Array(await response.arrayBuffer());
      if (response.status === 429 || (response.status === 503 && attempt < MAX_TRIES)) {
        if (response.status === 429) summary.rateLimited += 1;
        await sleep(Math.max(1, Number(response.headers.get('retry-after') ?? '1')) * 1_000);
        continue;
      }
      if (response.status !== 200) throw new Error(`POST /v1/traces answered ${response.status}`);
      summary.spans += exported.spans;
      summary.rejected += rejectedSpans(body);
      break;
    }
    onProgress?.(index + 1, exports.length);
  }
  summary.seconds = Math.round((performance.now() - started) / 100) / 10;
  return summary;
}
