import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { fieldIssues, type FieldIssue } from '@earshot/contracts';
import type { Mapping, MappingContext } from '../delivery';
import { asJson, CallEvents, msOfSeconds, timeOf, type CallInput } from '../envelopes';
import { AudioDataSchema, ElevenLabsWebhookSchema, InitiationFailureDataSchema, TranscriptionDataSchema, type ElevenLabsTranscription } from './payload';
import { addTranscript } from './transcript';

function callOf(data: { agent_id: string; conversation_id: string; version_id?: string | null }, phone?: ElevenLabsTranscription['metadata']): CallInput {
  const call = phone?.phone_call;
  const direction = call?.direction === 'inbound' || call?.direction === 'outbound' ? call.direction : null;
  return {
    provider_call_id: data.conversation_id,
    agent_id: data.agent_id,
    agent_version: data.version_id ?? null,
    direction,
    from_number: (direction === 'outbound' ? call?.agent_number : call?.external_number) ?? null,
    to_number: (direction === 'outbound' ? call?.external_number : call?.agent_number) ?? null,
  };
}

const invalid = (type: string, error: z.ZodError): Mapping => {
  const fields: FieldIssue[] = fieldIssues(error).map((f) => ({ ...f, path: `data.${f.path}` }));
  return { kind: 'invalid', eventName: type, reason: `ElevenLabs ${type} does not fit its documented data: ${fields.map((f) => f.path).join(', ')}`, fields };
};

/** post_call_transcription: the whole conversation after analysis. */
function addConversation(events: CallEvents, data: ElevenLabsTranscription, context: MappingContext): void {
  const meta = data.metadata;
  const start = timeOf(meta?.start_time_unix_secs, 's', context.receivedAt);
  const duration = msOfSeconds(meta?.call_duration_secs);
  const end = new Date(start.getTime() + (duration ?? 0));
  const analysis = data.analysis;
  const verdict = analysis?.call_successful;
  const phone = meta?.phone_call;
  events.add('call.started', 'call.started', start, {
    call_type: phone ? 'phone' : 'web',
    telephony_provider: phone?.type ?? null,
    telephony_call_id: phone?.call_sid ?? null,
    language: meta?.main_language ?? null,
  });
  events.add('call.ended', 'call.ended', end, {
    ended_reason: meta?.termination_reason ?? null,
    duration_ms: duration,
    cost_usd: meta?.cost_fiat ?? null,
    cost_credits: meta?.cost ?? null,
  });
  addTranscript(events, data.transcript, start, data.agent_id);
  events.add('call.completed', 'call.completed', end, {
    duration_ms: duration,
    ended_reason: meta?.termination_reason ?? null,
    success: verdict === 'success' ? true : verdict === 'failure' ? false : null,
    summary: analysis?.transcript_summary ?? null,
    cost_usd: meta?.cost_fiat ?? null,
    structured_data: asJson(analysis?.data_collection_results),
  });
  const score = meta?.feedback?.rating;
  if (typeof score === 'number' && score >= 0) {
    events.add('customer.feedback.submitted', 'feedback', end, { rating: Math.round(score), rating_scale: 5, channel: 'elevenlabs' });
  }
  events.outcome(context.tenantId, 'call_successful', verdict, end);
  for (const [id, criterion] of Object.entries(analysis?.evaluation_criteria_results ?? {})) {
    events.outcome(context.tenantId, `criteria.${criterion.criteria_id ?? id}`, criterion.result, end, criterion);
  }
  for (const [id, field] of Object.entries(analysis?.data_collection_results ?? {})) {
    events.outcome(context.tenantId, `data.${field.data_collection_id ?? id}`, field.value, end, field);
  }
}

/** ElevenLabs Agents' post-call webhooks (`{ type, event_timestamp, data }`) as events about the conversation. */
export function mapElevenLabs(payload: unknown, context: MappingContext): Mapping {
  const parsed = ElevenLabsWebhookSchema.safeParse(payload);
  if (!parsed.success) {
    const fields = fieldIssues(parsed.error);
    return {
      kind: 'invalid',
      eventName: null,
      reason: `the ElevenLabs webhook does not fit { type, event_timestamp, data }: ${fields.map((f) => f.path).join(', ')}`,
      fields,
    };
  }
  const { type, event_timestamp: timestamp } = parsed.data;
  const at = timeOf(timestamp, 's', context.receivedAt);
  const base = { provider: 'elevenlabs' as const, connectionId: context.connection.id, event: type, payload };
  switch (type) {
    case 'post_call_transcription': {
      const data = TranscriptionDataSchema.safeParse(parsed.data.data);
      if (!data.success) return invalid(type, data.error);
      const events = new CallEvents(base, callOf(data.data, data.data.metadata));
      addConversation(events, data.data, context);
      return { kind: 'events', eventName: type, envelopes: events.envelopes };
    }
    case 'post_call_audio': {
      const data = AudioDataSchema.safeParse(parsed.data.data);
      if (!data.success) return invalid(type, data.error);
      const audio = Buffer.from(data.data.full_audio, 'base64');
      const sha256 = createHash('sha256').update(audio).digest('hex');
      // The audio itself is not kept in the event log: its size and digest are, and ElevenLabs serves it by the conversation id.
      const kept = { ...parsed.data, data: { ...data.data, full_audio: { omitted: 'base64 MP3 of the conversation', bytes: audio.length, sha256 } } };
      const events = new CallEvents({ ...base, payload: kept }, callOf(data.data));
      events.add('recording.available', 'recording:audio', at, {
        recording_id: `${data.data.conversation_id}:audio`,
        url: `https://api.elevenlabs.io/v1/convai/conversations/${encodeURIComponent(data.data.conversation_id)}/audio`,
        format: 'mp3',
        size_bytes: audio.length,
        sha256,
      });
      return { kind: 'events', eventName: type, envelopes: events.envelopes };
    }
    case 'call_initiation_failure': {
      const data = InitiationFailureDataSchema.safeParse(parsed.data.data);
      if (!data.success) return invalid(type, data.error);
      const sip = data.data.metadata?.body?.sip_status_code;
      const events = new CallEvents(base, callOf(data.data));
      events.add('call.failed', 'call.failed', at, {
        error_code: data.data.failure_reason ?? 'unknown',
        message: null,
        stage: 'initiation',
        sip_status_code: typeof sip === 'number' && Number.isInteger(sip) && sip >= 0 ? sip : null,
        telephony: data.data.metadata?.type ?? null,
      });
      return { kind: 'events', eventName: type, envelopes: events.envelopes };
    }
    default:
      return { kind: 'unknown', eventName: type, reason: `ElevenLabs ${type} is not a webhook Earshot maps to events` };
  }
}
