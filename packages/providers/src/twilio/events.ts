import { fieldIssues } from '@earshot/contracts';
import type { Mapping, MappingContext } from '../delivery';
import { CallEvents, ms, text, timeOf, type CallInput } from '../envelopes';
import { TwilioCallbackSchema, type TwilioCallback } from './payload';

const count = (value: string | null | undefined) => (value && /^\d+$/.test(value) ? Number(value) : null);
const seconds = (value: string | null | undefined) => ms((count(value) ?? NaN) * 1000);

function callOf(callback: TwilioCallback, context: MappingContext): CallInput {
  const direction = callback.Direction === 'inbound' ? 'inbound' : callback.Direction?.startsWith('outbound') ? 'outbound' : null;
  const metadata = Object.fromEntries(
    [
      ['account_sid', callback.AccountSid],
      ['parent_call_sid', callback.ParentCallSid],
    ].filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  return {
    provider_call_id: callback.CallSid,
    // Twilio has no agent: the connection is named after the agent (or app) whose calls it carries.
    agent_id: context.connection.name,
    direction,
    from_number: callback.From ?? null,
    to_number: callback.To ?? null,
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
  };
}

/** A status callback (StatusCallbackEvent initiated, ringing, answered, completed; and the ends busy, no-answer, canceled, failed). */
function addStatus(events: CallEvents, callback: TwilioCallback, status: string, at: Date): boolean {
  const telephony = { telephony_provider: 'twilio', telephony_call_id: callback.CallSid };
  const start = () => events.add('call.started', 'call.started', at, { call_type: 'phone', ...telephony });
  switch (status) {
    case 'queued':
    case 'initiated':
      start();
      return true;
    case 'ringing':
      start().add('call.ringing', 'status:ringing', at, telephony);
      return true;
    case 'in-progress':
      start().add('call.answered', 'status:in-progress', at, { telephony_call_id: callback.CallSid, answered_by: callback.AnsweredBy ?? null });
      return true;
    case 'completed':
    case 'busy':
    case 'no-answer':
    case 'canceled':
      events.add('call.ended', 'call.ended', at, { ended_reason: status, duration_ms: seconds(callback.CallDuration) });
      return true;
    case 'failed':
      events.add('call.failed', 'call.failed', at, {
        error_code: callback.ErrorCode ?? 'failed',
        message: callback.ErrorMessage ?? null,
        stage: 'dial',
        sip_status_code: count(callback.SipResponseCode),
      });
      events.add('call.ended', 'call.ended', at, { ended_reason: 'failed', duration_ms: seconds(callback.CallDuration) });
      return true;
    default:
      return false;
  }
}

/** A recording status callback: completed is the recording; failed and absent are the recording's errors. */
function addRecording(events: CallEvents, callback: TwilioCallback, status: string, sid: string, at: Date): boolean {
  switch (status) {
    case 'completed':
      events.add('recording.available', `recording:${sid}`, at, {
        recording_id: sid,
        url: callback.RecordingUrl ?? `https://api.twilio.com/2010-04-01/Accounts/${callback.AccountSid}/Recordings/${sid}`,
        duration_ms: seconds(callback.RecordingDuration),
        channels: count(callback.RecordingChannels),
        source: callback.RecordingSource ?? null,
      });
      return true;
    case 'failed':
    case 'absent':
      events.add('provider.error.received', `recording:${sid}:${status}`, at, {
        component: 'telephony',
        provider_error_code: callback.ErrorCode ?? status,
        message: `recording ${sid} is ${status}`,
        vendor: 'twilio',
      });
      return true;
    case 'in-progress':
      events.add('workflow.state.changed', `recording:${sid}:in-progress`, at, {
        from_state: null,
        to_state: 'recording',
        node: sid,
        trigger: callback.RecordingSource ?? null,
      });
      return true;
    default:
      return false;
  }
}

/** Twilio's call status and recording status callbacks as events about the call. */
export function mapTwilio(payload: unknown, context: MappingContext): Mapping {
  const parsed = TwilioCallbackSchema.safeParse(payload);
  if (!parsed.success) {
    const fields = fieldIssues(parsed.error);
    return {
      kind: 'invalid',
      eventName: null,
      reason: `the Twilio callback does not fit Twilio's parameters: ${fields.map((f) => f.path).join(', ')}`,
      fields,
    };
  }
  const callback = parsed.data;
  const recording = text(callback.RecordingSid);
  const status = (recording ? callback.RecordingStatus : callback.CallStatus) ?? '';
  const eventName = `${recording ? 'recording' : 'call'}:${status || '(no status)'}`;
  const events = new CallEvents({ provider: 'twilio', connectionId: context.connection.id, event: eventName, payload }, callOf(callback, context));
  const at = timeOf(recording ? callback.RecordingStartTime : callback.Timestamp, 'iso', context.receivedAt);
  const mapped = recording ? addRecording(events, callback, status, recording, at) : addStatus(events, callback, status, at);
  if (!mapped) return { kind: 'unknown', eventName, reason: `Twilio ${eventName} is not a status Earshot maps to events` };
  return { kind: 'events', eventName, envelopes: events.envelopes };
}
