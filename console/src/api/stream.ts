/**
 * The live event stream (GET /api/v1/stream, WebSocket, subprotocol `earshot.v1`). A browser
 * cannot set headers on a WebSocket, so the key rides as a second subprotocol, `bearer.<key>`.
 * After a drop it reconnects with `after=` the last position it read, so no event is missed.
 */
import type { paths } from '@earshot/sdk';
import type { BodyOf } from './types';

type Envelope = Exclude<BodyOf<paths['/api/v1/webhooks/ingest']['post']>, readonly unknown[]>;
/** An event as the stream sends it: the envelope a provider sent, with the receipt the gateway added. */
export type StreamEvent = Envelope & { received_at?: string; provider?: string };

type Message = { type: 'ready' | 'heartbeat'; at: string; position: string } | { type: 'event'; position: string; event: StreamEvent };

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'refused';

export interface StreamHandlers {
  onEvent(event: StreamEvent): void;
  onState(state: StreamState, detail?: string): void;
}

const PROTOCOL = 'earshot.v1';
/** Close codes the server uses for a client it will not take back as it is (bad key, bad query). */
const FINAL_CLOSES = new Set([1008, 4001, 4003]);

export function openStream(key: string, handlers: StreamHandlers, origin: string = location.origin): () => void {
  let socket: WebSocket | null = null;
  let position: string | null = null;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;

  const connect = () => {
    const url = new URL('/api/v1/stream', origin.replace(/^http/, 'ws'));
    if (position) url.searchParams.set('after', position);
    handlers.onState(attempt === 0 ? 'connecting' : 'reconnecting');
    socket = new WebSocket(url, [PROTOCOL, `bearer.${key}`]);
    socket.onmessage = (message: MessageEvent<string>) => {
      const parsed = JSON.parse(message.data) as Message;
      position = parsed.position;
      if (parsed.type === 'event') handlers.onEvent(parsed.event);
      else if (parsed.type === 'ready') {
        attempt = 0;
        handlers.onState('live');
      }
    };
    socket.onclose = (close: CloseEvent) => {
      if (stopped) return;
      if (FINAL_CLOSES.has(close.code)) return handlers.onState('refused', close.reason || 'the stream refused this key');
      attempt += 1;
      handlers.onState('reconnecting', close.reason || undefined);
      retry = setTimeout(connect, Math.min(10_000, 500 * 2 ** Math.min(attempt, 5)));
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    socket?.close(1000, 'closed by the console');
  };
}

const joined = (...parts: (string | number | null | undefined)[]) => parts.filter((p) => p !== null && p !== undefined && p !== '').join(' · ');

/** One line about an event, from the fields its type carries. */
export function describeEvent(event: StreamEvent): string {
  switch (event.type) {
    case 'transcript.partial':
    case 'transcript.final':
      return `${event.data.speaker}: ${event.data.text}`;
    case 'agent.response.generated':
      return joined(event.data.text, event.data.latency ? `${event.data.latency.total_ms} ms` : null);
    case 'tool.call.started':
      return event.data.name;
    case 'tool.call.completed':
      return joined(event.data.name, event.data.duration_ms === null || event.data.duration_ms === undefined ? null : `${event.data.duration_ms} ms`);
    case 'tool.call.failed':
      return joined(event.data.name, event.data.error);
    case 'provider.error.received':
      return joined(event.data.component, event.data.vendor, event.data.message);
    case 'workflow.state.changed':
      return event.data.from_state ? `${event.data.from_state} → ${event.data.to_state}` : event.data.to_state;
    case 'handoff.initiated':
    case 'handoff.completed':
      return joined(event.data.target_kind, event.data.target, event.data.reason);
    case 'call.transferred':
      return joined(event.data.to, event.data.reason);
    case 'call.ended':
      return joined(
        event.data.ended_reason,
        event.data.duration_ms === null || event.data.duration_ms === undefined ? null : `${Math.round(event.data.duration_ms / 1000)} s`,
      );
    case 'call.failed':
      return joined(event.data.error_code, event.data.message);
    case 'call.completed':
      return joined(event.data.ended_reason, event.data.summary);
    case 'customer.feedback.submitted':
    case 'call.started':
    case 'call.ringing':
    case 'call.answered':
    case 'audio.stream.started':
    case 'audio.stream.stopped':
    case 'recording.available':
    case 'outcome.recorded':
    case 'incident.created':
    case 'incident.updated':
    case 'deployment.recorded':
    case 'alert.fired':
    case 'alert.resolved':
    case 'alert.rule.changed':
    case 'invoice.issued':
    case 'billing.plan.changed':
      return '';
    default: {
      const unknown: never = event;
      return String((unknown as { type: string }).type);
    }
  }
}
