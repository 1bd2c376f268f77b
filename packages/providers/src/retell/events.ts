import { fieldIssues } from '@earshot/contracts';
import type { Mapping, MappingContext } from '../delivery';
import { asJson, CallEvents, stringValues, text, timeOf, type CallInput } from '../envelopes';
import { RetellWebhookSchema, type RetellCall } from './payload';
import { addTimeline, addTranscript, addTurns } from './timeline';

/** Disconnection reasons that mean the call broke rather than ended (Retell's "debug call disconnect" list). */
const FAILURE_REASONS: ReadonlySet<string> = new Set([
  'dial_failed',
  'invalid_destination',
  'telephony_provider_permission_denied',
  'telephony_provider_unavailable',
  'sip_routing_error',
  'concurrency_limit_reached',
  'no_concurrency_fallback',
  'no_valid_payment',
  'registered_call_timeout',
]);

function callOf(call: RetellCall): CallInput {
  return {
    provider_call_id: call.call_id,
    agent_id: call.agent_id,
    agent_version: call.agent_version == null ? null : String(call.agent_version),
    direction: call.direction ?? null,
    from_number: call.from_number ?? null,
    to_number: call.to_number ?? null,
    metadata: stringValues(call.metadata),
  };
}

function addStart(events: CallEvents, call: RetellCall, context: MappingContext): void {
  if (typeof call.start_timestamp !== 'number') return;
  const sid = call.telephony_identifier?.twilio_call_sid ?? null;
  events.add('call.started', 'call.started', timeOf(call.start_timestamp, 'ms', context.receivedAt), {
    call_type: call.call_type ?? null,
    telephony_provider: sid ? 'twilio' : null,
    telephony_call_id: sid,
  });
}

function addRecordings(events: CallEvents, call: RetellCall, at: Date): void {
  const recordings = [
    ['recording', call.recording_url, 1],
    ['multi_channel', call.recording_multi_channel_url, 2],
    ['scrubbed', call.scrubbed_recording_url, 1],
  ] as const;
  for (const [kind, url, channels] of recordings) {
    if (!url) continue;
    events.add('recording.available', `recording:${kind}`, at, {
      recording_id: `${call.call_id}:${kind}`,
      url,
      duration_ms: call.duration_ms ?? null,
      channels,
    });
  }
}

/** call_ended: the end, and everything Retell knows by then (transcript, tool calls, turn latencies, recordings, cost). */
function addEnd(events: CallEvents, call: RetellCall, context: MappingContext): void {
  const at = timeOf(call.end_timestamp, 'ms', context.receivedAt);
  const reason = call.disconnection_reason ?? null;
  const combined = call.call_cost?.combined_cost;
  addStart(events, call, context);
  events.add('call.ended', 'call.ended', at, {
    ended_reason: reason,
    disconnection_reason: reason,
    duration_ms: call.duration_ms == null ? null : Math.max(0, Math.round(call.duration_ms)),
    cost_usd: typeof combined === 'number' && combined >= 0 ? combined / 100 : null,
  });
  if (reason && (reason.startsWith('error_') || FAILURE_REASONS.has(reason))) {
    events.add('call.failed', 'call.failed', at, { error_code: reason, message: null, stage: reason.startsWith('error_') ? 'call' : 'dial' });
  }
  if (reason === 'call_transfer' && call.transfer_destination) {
    events.add('call.transferred', 'call.transferred', at, { to: call.transfer_destination, reason, transfer_type: null });
  }
  addTranscript(events, call, at);
  addTimeline(events, call, at);
  addTurns(events, call, at);
  addRecordings(events, call, at);
}

/** call_analyzed: the whole call again (the same keys, so nothing twice), its analysis as the completed report and outcomes. */
function addAnalysis(events: CallEvents, call: RetellCall, context: MappingContext): void {
  addEnd(events, call, context);
  const at = timeOf(call.end_timestamp, 'ms', context.receivedAt);
  const analysis = call.call_analysis;
  const combined = call.call_cost?.combined_cost;
  events.add('call.completed', 'call.completed', at, {
    duration_ms: call.duration_ms == null ? null : Math.max(0, Math.round(call.duration_ms)),
    ended_reason: call.disconnection_reason ?? null,
    success: analysis?.call_successful ?? null,
    summary: analysis?.call_summary ?? null,
    sentiment: analysis?.user_sentiment ?? null,
    cost_usd: typeof combined === 'number' && combined >= 0 ? combined / 100 : null,
    recording_url: call.recording_url ?? null,
    structured_data: asJson(analysis?.custom_analysis_data),
    in_voicemail: analysis?.in_voicemail ?? null,
  });
  events.outcome(context.tenantId, 'call_successful', analysis?.call_successful, at);
  events.outcome(context.tenantId, 'user_sentiment', analysis?.user_sentiment, at);
  events.outcome(context.tenantId, 'in_voicemail', analysis?.in_voicemail, at);
  const custom = analysis?.custom_analysis_data;
  if (custom && typeof custom === 'object' && !Array.isArray(custom)) {
    for (const [name, value] of Object.entries(custom)) events.outcome(context.tenantId, `custom.${name}`, value, at);
  }
}

/** transfer_*: a hand-off to a person, bridged (the call is escalated), cancelled or ended. */
function addTransfer(events: CallEvents, event: string, call: RetellCall, context: MappingContext): void {
  const target = call.transfer_destination ?? 'unknown';
  const handoff = { handoff_id: `transfer:${target}`, target, target_kind: 'human' as const, reason: null };
  const at = timeOf(event === 'transfer_ended' ? call.transfer_end_timestamp : undefined, 'ms', context.receivedAt);
  switch (event) {
    case 'transfer_started':
      events.add('handoff.initiated', `${event}:${target}`, at, handoff);
      return;
    case 'transfer_bridged':
      events.add('handoff.completed', `${event}:${target}`, at, handoff);
      events.add('call.transferred', 'call.transferred', at, { to: target, reason: event, transfer_type: null });
      return;
    default:
      events.add('workflow.state.changed', `${event}:${target}`, at, { from_state: 'transfer', to_state: event, node: target, trigger: event });
  }
}

/** Retell's webhook (`{ event, call }`) as events about the call. */
export function mapRetell(payload: unknown, context: MappingContext): Mapping {
  const parsed = RetellWebhookSchema.safeParse(payload);
  const named = typeof payload === 'object' && payload !== null && 'event' in payload ? text(payload.event) : null;
  if (!parsed.success) {
    const fields = fieldIssues(parsed.error);
    return {
      kind: 'invalid',
      eventName: named,
      reason: `Retell ${named ?? 'webhook'} does not fit Retell's call object: ${fields.map((f) => f.path).join(', ')}`,
      fields,
    };
  }
  const { event, call } = parsed.data;
  const events = new CallEvents({ provider: 'retell', connectionId: context.connection.id, event, payload }, callOf(call));
  switch (event) {
    case 'call_started':
      addStart(events, call, context);
      break;
    case 'call_ended':
      addEnd(events, call, context);
      break;
    case 'call_analyzed':
      addAnalysis(events, call, context);
      break;
    case 'transcript_updated':
      addTranscript(events, call, context.receivedAt);
      addTimeline(events, call, context.receivedAt);
      break;
    case 'transfer_started':
    case 'transfer_bridged':
    case 'transfer_cancelled':
    case 'transfer_ended':
      addTransfer(events, event, call, context);
      break;
    default:
      return { kind: 'unknown', eventName: event, reason: `Retell event ${event} is not one Earshot maps to events` };
  }
  return { kind: 'events', eventName: event, envelopes: events.envelopes };
}
