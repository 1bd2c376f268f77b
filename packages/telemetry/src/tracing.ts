import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Context,
  type Link,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's OTLP/HTTP base URL; spans go to its `/v1/traces`, as the variable's spec says. */
  endpoint: string;
  /** OTEL_SERVICE_NAME, or `earshot-<target>`. */
  serviceName: string;
}

/** The tracer every part of Earshot starts its spans on: a no-op until tracing is started. */
export function tracer(): Tracer {
  return trace.getTracer('earshot');
}

/**
 * Registers the OpenTelemetry SDK for the process: spans batched to the
 * collector over OTLP/HTTP (protobuf), context carried across awaits by
 * AsyncLocalStorage and across processes by W3C `traceparent`. Answers the
 * stop that flushes what is still batched.
 */
export function startTracing({ endpoint, serviceName }: TracingOptions): { stop(): Promise<void> } {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }), scheduledDelayMillis: 500 }),
    ],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    stop: async () => {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** Runs `work` in a new span, child of the active one, ending it with `work`'s outcome (an error recorded as such). */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>, parent: Context = context.active()): Promise<T> {
  return tracer().startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active trace as W3C headers (`traceparent`) added to a record's or request's headers; none while tracing is off. */
export function withTraceHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const carried = { ...headers };
  propagation.inject(context.active(), carried);
  return carried;
}

/** The trace context a record's or request's headers carry, for the span that handles it. */
export function traceContextOf(headers: Readonly<Record<string, string | string[] | undefined>>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/**
 * How a span handling several records continues their traces, as
 * OpenTelemetry's messaging conventions do for batches: child of the first
 * traced record, linked to the others.
 */
export function continuing(carriers: readonly Readonly<Record<string, string>>[]): { parent: Context; links: Link[] } {
  const traced = carriers.map((headers) => trace.getSpanContext(traceContextOf(headers))).filter((span) => span !== undefined);
  const [first, ...rest] = traced;
  return { parent: first ? trace.setSpanContext(ROOT_CONTEXT, first) : ROOT_CONTEXT, links: rest.map((spanContext) => ({ context: spanContext })) };
}
