import type { FastifyRequest } from 'fastify';
import { ApiError } from '@earshot/contracts';
import type { Intake } from '@earshot/intake';
import {
  readMetricsRequest,
  readTraceRequest,
  type ExportMetricsServiceRequest,
  type ExportTraceServiceRequest,
  type OtlpBodyResult,
  type OtlpEncoding,
  type ReceivedOtlp,
} from '@earshot/otlp';
import { acceptSpans } from './otlp-spans';
import { deadLetterBody } from './otlp-dead-letter';

/**
 * What an export is, whichever transport brought it (OTLP/HTTP or OTLP/gRPC):
 * the content-type parsers leave a ParsedOtlp, and the routes answer what
 * these functions decide, each in its own wire form.
 */
export type Signal = 'traces' | 'metrics';

/** What a content-type parser leaves for the handler: the request decoded, or why it could not be, with the bytes for the dead letter. */
export interface ParsedOtlp<T> {
  encoding: OtlpEncoding;
  raw: Buffer;
  result: OtlpBodyResult<T>;
}

/** What the exporter is told: how many spans (data points) were rejected, and why or what to know. */
export interface ExportOutcome {
  rejected: number;
  message: string | null;
}

/** A received body decoded as the signal's export request. */
export function parseExport(signal: Signal, raw: Buffer, received: OtlpBodyResult<ReceivedOtlp>): ParsedOtlp<unknown> {
  if (!received.ok) return { encoding: 'protobuf', raw, result: received };
  const result = signal === 'metrics' ? readMetricsRequest(received.request) : readTraceRequest(received.request);
  return { encoding: received.request.encoding, raw, result };
}

export function parsed<T>(request: FastifyRequest): ParsedOtlp<T> {
  return request.body as ParsedOtlp<T>;
}

/** Spans (or data points) a request carries, for the tenant's event limit; a body that did not decode counts as one. */
export function itemCount(request: FastifyRequest): number {
  const body = request.body as ParsedOtlp<ExportTraceServiceRequest | ExportMetricsServiceRequest> | undefined;
  if (!body?.result.ok) return 1;
  const { request: decoded } = body.result;
  const count =
    'resourceSpans' in decoded
      ? (decoded.resourceSpans ?? []).reduce((n, r) => n + (r.scopeSpans ?? []).reduce((m, s) => m + s.spans.length, 0), 0)
      : ((decoded as ExportMetricsServiceRequest).resourceMetrics ?? []).reduce(
          (n, r) => n + (r.scopeMetrics ?? []).reduce((m, s) => m + s.metrics.reduce((k, metric) => k + metric.dataPoints, 0), 0),
          0,
        );
  return Math.max(1, count);
}

/** The spans' events through the intake; the request's delivery notes are set. */
export async function exportTraces(request: FastifyRequest, intake: Intake, now: () => Date): Promise<ExportOutcome> {
  const body = await decoded<ExportTraceServiceRequest>(request, intake, now, 'traces');
  const caller = request.caller as NonNullable<typeof request.caller>;
  const outcome = await acceptSpans(intake, { tenantId: caller.tenant.id, receivedAt: now() }, body);
  request.deliveryNotes = outcome.notes;
  return { rejected: outcome.rejected, message: outcome.message };
}

/** Metrics are acknowledged, not stored: lk.agents.turn.* summarize the spans, other metrics' data points are rejected. */
export async function exportMetrics(request: FastifyRequest, intake: Intake, now: () => Date): Promise<ExportOutcome> {
  const body = await decoded<ExportMetricsServiceRequest>(request, intake, now, 'metrics');
  const metrics = (body.resourceMetrics ?? []).flatMap((r) => (r.scopeMetrics ?? []).flatMap((s) => s.metrics));
  const others = metrics.filter((m) => !m.name.startsWith('lk.agents.turn.'));
  const rejected = others.reduce((n, m) => n + m.dataPoints, 0);
  const message =
    metrics.length === 0
      ? null
      : `Earshot keeps per-turn latency from the spans (the traces export), which lk.agents.turn.* summarize: their data points are acknowledged, not stored` +
        (others.length > 0
          ? `; ${rejected} data points of other metrics (${[...new Set(others.map((m) => m.name))].slice(0, 5).join(', ')}) are rejected`
          : '');
  request.deliveryNotes = [{ outcome: 'accepted', eventType: null, idempotencyKey: null, eventId: null, reason: message }];
  return { rejected, message };
}

/** The decoded request; one that did not decode is dead-lettered whole and refused. */
async function decoded<T>(request: FastifyRequest, intake: Intake, now: () => Date, signal: Signal): Promise<T> {
  const body = parsed<T>(request);
  if (body.result.ok) return body.result.request;
  const caller = request.caller as NonNullable<typeof request.caller>;
  const sender = { tenantId: caller.tenant.id, provider: 'otlp', receivedAt: now() };
  const dead = deadLetterBody(body.raw, `OTLP ${signal}: ${body.result.message}`);
  const outcome = await intake.rejectBody(sender, dead.raw, dead.reason, [{ path: '(body)', message: body.result.message }]);
  request.deliveryNotes = [outcome.note];
  const { code, message, headers } = body.result;
  throw new ApiError(code, message, { deadLetterId: outcome.result.deadLetterId, ...(headers ? { headers } : {}) });
}
