import type { ProjectedEvent } from '../projected-event';
import type { DocumentProjection } from '../projection';
import { earliest, latest, type Register } from '../registers';

type TraceKind = 'tool_call' | 'workflow_state' | 'handoff' | 'audio_stream' | 'provider_error';

interface TracePoint {
  occurredAt: string;
  status: string;
  name: string;
  turnId: string | null;
  durationMs: number | null;
  detail: Record<string, unknown>;
}

/** A trace span: the earliest opening event (started, initiated, or a one-off point) and the latest closing one. */
interface TraceFacts {
  callId: string;
  kind: TraceKind;
  traceId: string;
  opening: Register<TracePoint> | null;
  closing: Register<TracePoint> | null;
}

function point(
  e: ProjectedEvent,
  kind: TraceKind,
  traceId: string,
  side: 'opening' | 'closing',
  p: Omit<TracePoint, 'occurredAt'>,
): { key: Record<string, string>; facts: TraceFacts } | null {
  if (!e.callId) return null;
  // Assigned, not `{ ...p, occurredAt }`: gaining a key after a spread is V8's slow path on Node 20.
  const register: Register<TracePoint> = { at: e.stamp, value: Object.assign({}, p, { occurredAt: e.event.occurred_at }) };
  return {
    key: { call_id: e.callId, kind, trace_id: traceId },
    facts: { callId: e.callId, kind, traceId, opening: side === 'opening' ? register : null, closing: side === 'closing' ? register : null },
  };
}

function traceFacts(e: ProjectedEvent) {
  const { event } = e;
  switch (event.type) {
    case 'tool.call.started': {
      const d = event.data;
      return point(e, 'tool_call', d.tool_call_id, 'opening', {
        status: 'started',
        name: d.name,
        turnId: d.turn_id,
        durationMs: null,
        detail: { arguments: d.arguments },
      });
    }
    case 'tool.call.completed': {
      const d = event.data;
      return point(e, 'tool_call', d.tool_call_id, 'closing', {
        status: 'completed',
        name: d.name,
        turnId: d.turn_id,
        durationMs: d.duration_ms,
        detail: { arguments: d.arguments, result: d.result },
      });
    }
    case 'tool.call.failed': {
      const d = event.data;
      return point(e, 'tool_call', d.tool_call_id, 'closing', {
        status: 'failed',
        name: d.name,
        turnId: d.turn_id,
        durationMs: d.duration_ms,
        detail: { arguments: d.arguments, error: d.error },
      });
    }
    case 'workflow.state.changed': {
      const d = event.data;
      return point(e, 'workflow_state', event.idempotency_key, 'opening', {
        status: 'entered',
        name: d.to_state,
        turnId: null,
        durationMs: null,
        detail: { from_state: d.from_state, node: d.node, trigger: d.trigger },
      });
    }
    case 'handoff.initiated': {
      const d = event.data;
      return point(e, 'handoff', d.handoff_id, 'opening', {
        status: 'initiated',
        name: d.target,
        turnId: null,
        durationMs: null,
        detail: { target_kind: d.target_kind, reason: d.reason },
      });
    }
    case 'handoff.completed': {
      const d = event.data;
      return point(e, 'handoff', d.handoff_id, 'closing', {
        status: 'completed',
        name: d.target,
        turnId: null,
        durationMs: d.wait_ms,
        detail: { target_kind: d.target_kind, reason: d.reason, accepted_by: d.accepted_by },
      });
    }
    case 'audio.stream.started': {
      const d = event.data;
      return point(e, 'audio_stream', d.stream_id, 'opening', {
        status: 'started',
        name: d.stream_id,
        turnId: null,
        durationMs: null,
        detail: { codec: d.codec, sample_rate: d.sample_rate, channels: d.channels, direction: d.direction },
      });
    }
    case 'audio.stream.stopped': {
      const d = event.data;
      return point(e, 'audio_stream', d.stream_id, 'closing', {
        status: 'stopped',
        name: d.stream_id,
        turnId: null,
        durationMs: d.duration_ms,
        detail: { codec: d.codec, sample_rate: d.sample_rate, channels: d.channels, direction: d.direction, reason: d.reason },
      });
    }
    case 'provider.error.received': {
      const d = event.data;
      return point(e, 'provider_error', event.idempotency_key, 'opening', {
        status: 'error',
        name: d.component,
        turnId: null,
        durationMs: null,
        detail: { provider_error_code: d.provider_error_code, message: d.message, vendor: d.vendor, http_status: d.http_status, retryable: d.retryable },
      });
    }
    default:
      return null;
  }
}

/** Tool calls, workflow state changes, handoffs, audio streams and provider errors of a call, one row per span. */
export const traces: DocumentProjection<TraceFacts> = {
  kind: 'document',
  name: 'traces',
  version: 1,
  table: 'traces',
  key: ['call_id', 'kind', 'trace_id'],
  handles: [
    'tool.call.started',
    'tool.call.completed',
    'tool.call.failed',
    'workflow.state.changed',
    'handoff.initiated',
    'handoff.completed',
    'audio.stream.started',
    'audio.stream.stopped',
    'provider.error.received',
  ],
  facts: traceFacts,
  merge: (a, b) => ({ ...a, opening: earliest(a.opening, b.opening), closing: latest(a.closing, b.closing) }),
  row({ opening, closing }) {
    const open = opening?.value ?? null;
    const close = closing?.value ?? null;
    const started = open?.occurredAt ?? null;
    const ended = close?.occurredAt ?? null;
    const measured = started !== null && ended !== null ? Math.max(0, Date.parse(ended) - Date.parse(started)) : null;
    return {
      name: open?.name ?? close?.name ?? '',
      status: close?.status ?? open?.status ?? '',
      turn_id: open?.turnId ?? close?.turnId ?? null,
      started_at: started ?? ended,
      ended_at: ended,
      duration_ms: close?.durationMs ?? measured,
      detail: { ...open?.detail, ...close?.detail },
    };
  },
};
