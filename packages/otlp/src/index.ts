export { eventsOfSpans, frameworkOf, type Framework, type SpanEvents } from './mapping/span-mapping';
export type { Envelope } from './mapping/envelopes';
export { spansOf, type OtelSpan } from './spans';
export { exportAnswer, failureAnswer, type OtlpAnswer } from './wire/otlp-answer';
export { OTLP_CONTENT_TYPES, readMetricsRequest, readTraceRequest, type OtlpBodyResult, type OtlpEncoding, type ReceivedOtlp } from './wire/otlp-body';
export { MAX_ATTRIBUTES, MAX_SPANS, type ExportMetricsServiceRequest, type ExportTraceServiceRequest } from './wire/otlp-request';
export { OTLP_MESSAGES } from './wire/generated';
export type { RpcStatus } from './wire/rpc-status';
