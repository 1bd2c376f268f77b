import { describe, expect, it } from 'vitest';
import { ExportTraceServiceRequestSchema } from './otlp-request';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

/** One span with these ids, in a request as protobufjs's toObject or OTLP/JSON gives it. */
const request = (ids: { traceId?: unknown; spanId?: unknown; parentSpanId?: unknown }) => ({
  resourceSpans: [
    {
      scopeSpans: [{ spans: [{ traceId: TRACE, spanId: SPAN, name: 'agent_turn', startTimeUnixNano: '1', endTimeUnixNano: '2', ...ids }] }],
    },
  ],
});

const spanOf = (ids: Parameters<typeof request>[0]) => {
  const parsed = ExportTraceServiceRequestSchema.safeParse(request(ids));
  return parsed.success ? parsed.data.resourceSpans?.[0]?.scopeSpans?.[0]?.spans[0] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe("an export request's span ids", () => {
  it('are read from bytes or hex, as lowercase hex', () => {
    expect(spanOf({ traceId: Buffer.from(TRACE, 'hex'), spanId: Buffer.from(SPAN, 'hex') })).toMatchObject({ traceId: TRACE, spanId: SPAN });
    expect(spanOf({ traceId: TRACE.toUpperCase(), spanId: SPAN.toUpperCase() })).toMatchObject({ traceId: TRACE, spanId: SPAN });
  });

  it('are refused at their path when of the wrong length, not hex, or all zeros', () => {
    const where = 'resourceSpans.0.scopeSpans.0.spans.0';
    expect(spanOf({ traceId: TRACE.slice(2) })).toEqual([`${where}.traceId: traceId must be 16 bytes and not all zero`]);
    expect(spanOf({ spanId: 'z'.repeat(16) })).toEqual([`${where}.spanId: spanId must be 8 bytes and not all zero`]);
    expect(spanOf({ spanId: Buffer.alloc(8) })).toEqual([`${where}.spanId: spanId must be 8 bytes and not all zero`]);
    expect(spanOf({ spanId: '' })).toEqual([`${where}.spanId: spanId must be 8 bytes and not all zero`]);
  });

  it('read a parent that is absent, empty or all zeros as none, and refuse one of the wrong length', () => {
    for (const none of [undefined, '', Buffer.alloc(0), '0'.repeat(16), Buffer.alloc(8)])
      expect(spanOf({ parentSpanId: none })).toMatchObject({ parentSpanId: null });
    expect(spanOf({ parentSpanId: Buffer.from(SPAN, 'hex') })).toMatchObject({ parentSpanId: SPAN });
    expect(spanOf({ parentSpanId: '0000' })).toEqual(['resourceSpans.0.scopeSpans.0.spans.0.parentSpanId: parentSpanId must be empty or 8 bytes']);
    expect(spanOf({ parentSpanId: SPAN.slice(2) })).toEqual(['resourceSpans.0.scopeSpans.0.spans.0.parentSpanId: parentSpanId must be empty or 8 bytes']);
  });
});
