import generatedRoot from '@opentelemetry/otlp-transformer/build/src/generated/root.js';

/**
 * The protobuf code the OpenTelemetry JS project generated with protobufjs
 * (pbjs static-module) from the official opentelemetry-proto files. Version
 * 0.216.0 of @opentelemetry/otlp-transformer is the last that ships it (later
 * ones serialize by hand and cannot decode a request); its typings declare only
 * a protobufjs Root, so the few message classes read here are typed by this file.
 */
export interface StaticMessage {
  decode(bytes: Uint8Array): object;
  toObject(message: object, options: { longs?: typeof String; arrays?: boolean; defaults?: boolean }): unknown;
  fromObject(object: Record<string, unknown>): object;
  encode(message: object): { finish(): Uint8Array };
}

const generated: unknown = generatedRoot;

function messageAt(path: string): StaticMessage {
  let node: unknown = generated;
  for (const part of path.split('.')) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
  if (typeof node !== 'function' || !('decode' in node) || !('encode' in node)) throw new Error(`the generated OTLP code has no message ${path}`);
  return node as unknown as StaticMessage;
}

export const OTLP_MESSAGES = {
  traceRequest: messageAt('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
  traceResponse: messageAt('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
  metricsRequest: messageAt('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
  metricsResponse: messageAt('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse'),
} as const;
