import { fieldIssues } from '@earshot/contracts';
import type { Mapping, MappingContext } from '../delivery';
import { asJson, CallEvents, digest, ms, stringValues, text, timeOf, type CallInput } from '../envelopes';
import { BlandCallSchema, type BlandCall } from './payload';

/** Who said it: Bland's `user` is the callee; `robot` is an IVR on their side; `assistant` is the agent. */
const SPEAKERS: Record<string, 'agent' | 'customer'> = { assistant: 'agent', user: 'customer', robot: 'customer' };
const POST_CALL_FIELDS = ['completed', 'status', 'call_length', 'transcripts', 'concatenated_transcript'];

function callOf(call: BlandCall, context: MappingContext): CallInput {
  const direction = call.inbound === true ? 'inbound' : call.inbound === false ? 'outbound' : null;
  return {
    provider_call_id: call.call_id,
    agent_id: call.pathway_id ?? call.persona_id ?? context.connection.name,
    direction,
    from_number: call.from ?? null,
    to_number: call.to ?? null,
    workflow_id: call.pathway_id ?? null,
    metadata: stringValues(call.metadata),
  };
}

function durationOf(call: BlandCall): number | null {
  const corrected = Number(call.corrected_duration);
  if (call.corrected_duration != null && Number.isFinite(corrected)) return ms(corrected * 1000);
  return ms((call.call_length ?? NaN) * 60_000);
}

function addTranscript(events: CallEvents, call: BlandCall, fallback: Date): void {
  (call.transcripts ?? []).forEach((line, index) => {
    const at = timeOf(line.created_at, 'iso', fallback);
    const said = line.text ?? '';
    const speaker = SPEAKERS[line.user ?? ''];
    if (speaker) {
      events.add('transcript.final', `transcript:${line.id ?? index}:${digest(said)}`, at, { turn_id: `t${line.id ?? index}`, speaker, text: said }, line);
    } else {
      // agent-action lines are what the agent did (a pathway step, a tool), not words.
      events.add(
        'workflow.state.changed',
        `action:${line.id ?? index}`,
        at,
        { from_state: null, to_state: line.user ?? 'action', node: null, trigger: said || null },
        line,
      );
    }
  });
}

/** Bland's call webhook (the call object, posted when the call ends) as events about the call. */
export function mapBland(payload: unknown, context: MappingContext): Mapping {
  const known = typeof payload === 'object' && payload !== null && POST_CALL_FIELDS.some((field) => field in payload);
  if (!known) return { kind: 'unknown', eventName: null, reason: 'the Bland webhook is not a call object (a post-call webhook): Earshot maps those only' };
  const parsed = BlandCallSchema.safeParse(payload);
  if (!parsed.success) {
    const fields = fieldIssues(parsed.error);
    return { kind: 'invalid', eventName: 'call', reason: `the Bland call does not fit Bland's call object: ${fields.map((f) => f.path).join(', ')}`, fields };
  }
  const call = parsed.data;
  const events = new CallEvents({ provider: 'bland', connectionId: context.connection.id, event: 'call', payload }, callOf(call, context));
  const started = timeOf(call.started_at ?? call.created_at, 'iso', context.receivedAt);
  const ended = timeOf(call.end_at, 'iso', context.receivedAt);
  const duration = durationOf(call);
  const reason = call.call_ended_by ?? call.status ?? null;

  events.add('call.started', 'call.started', started, { call_type: 'phone' });
  if (call.answered_by === 'human') events.add('call.answered', 'call.answered', started, { answered_by: call.answered_by });
  addTranscript(events, call, started);
  if (text(call.transferred_to)) {
    events.add('call.transferred', 'call.transferred', timeOf(call.transferred_at, 'iso', ended), {
      to: call.transferred_to as string,
      reason: null,
      transfer_type: null,
    });
  }
  if (text(call.error_message) && call.completed !== true) {
    events.add('call.failed', 'call.failed', ended, { error_code: call.status ?? 'error', message: call.error_message ?? null, stage: 'call' });
  }
  events.add('call.ended', 'call.ended', ended, { ended_reason: reason, duration_ms: duration, cost_usd: call.price ?? null });
  if (call.recording_url)
    events.add('recording.available', 'recording', ended, { recording_id: `${call.call_id}:recording`, url: call.recording_url, duration_ms: duration });
  events.add('call.completed', 'call.completed', ended, {
    duration_ms: duration,
    ended_reason: reason,
    summary: call.summary ?? null,
    cost_usd: call.price ?? null,
    recording_url: call.recording_url ?? null,
    structured_data: asJson(call.analysis),
    answered_by: call.answered_by ?? null,
  });
  events.outcome(context.tenantId, 'disposition', call.disposition_tag, ended);
  events.outcome(context.tenantId, 'answered_by', call.answered_by, ended);
  for (const [name, value] of Object.entries(call.analysis ?? {})) events.outcome(context.tenantId, `analysis.${name}`, value, ended);
  return { kind: 'events', eventName: 'call', envelopes: events.envelopes };
}
