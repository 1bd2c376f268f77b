export { createLogger, fallbackLogger, type Logger, type LogLevel } from './logger';
export { Metrics, type LagSource, type PartitionLag } from './metrics';
export { continuing, inSpan, startTracing, traceContextOf, tracer, withTraceHeaders } from './tracing';
export { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
