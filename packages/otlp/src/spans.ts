import type { AttributeValue, ExportTraceServiceRequest } from './wire/otlp-request';

/** One span of an export request, with what its resource and scope say about it. */
export interface OtelSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Readonly<Record<string, AttributeValue>>;
  /** 2 is ERROR in OTLP's status codes. */
  statusCode: number;
  statusMessage: string | null;
  /** The instrumentation scope (tracer) name: `livekit-agents`, `pipecat`, `pipecat.turn`. */
  scope: string;
  resource: Readonly<Record<string, AttributeValue>>;
}

export const STATUS_ERROR = 2;

export function spansOf(request: ExportTraceServiceRequest): OtelSpan[] {
  return (request.resourceSpans ?? []).flatMap(({ resource, scopeSpans }) =>
    (scopeSpans ?? []).flatMap(({ scope, spans }) =>
      spans.map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId,
        name: span.name,
        startMs: span.startTimeUnixNano,
        endMs: span.endTimeUnixNano,
        attributes: span.attributes,
        statusCode: span.status.code,
        statusMessage: span.status.message,
        scope: scope.name,
        resource: resource.attributes,
      })),
    ),
  );
}
