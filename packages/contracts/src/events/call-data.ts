import { z } from 'zod';
import { nonNegativeUsd, senderText, storedId } from '../text';
import { jsonValue, maybe, nonNegativeInt, nonNegativeLong, timestamp } from './fields';

/** Contents of the call lifecycle events, from Retell call_started/call_ended/call_analyzed, Vapi status-update and end-of-call-report, and Twilio status callbacks. */
export const CALL_DATA = {
  'call.started': z.looseObject({
    call_type: maybe(senderText),
    telephony_provider: maybe(senderText),
    telephony_call_id: maybe(senderText),
    llm_model: maybe(senderText),
    asr_model: maybe(senderText),
    tts_voice: maybe(senderText),
    language: maybe(senderText),
  }),
  'call.ringing': z.looseObject({
    telephony_provider: maybe(senderText),
    telephony_call_id: maybe(senderText),
  }),
  'call.answered': z.looseObject({
    telephony_call_id: maybe(senderText),
    ring_duration_ms: maybe(nonNegativeInt),
    answered_by: maybe(senderText),
  }),
  'call.ended': z.looseObject({
    ended_reason: maybe(senderText),
    disconnection_reason: maybe(senderText),
    duration_ms: maybe(nonNegativeInt),
    cost_usd: maybe(nonNegativeUsd),
  }),
  'call.transferred': z.looseObject({
    to: storedId,
    reason: maybe(senderText),
    transfer_type: maybe(senderText),
  }),
  'call.failed': z.looseObject({
    error_code: maybe(senderText),
    message: maybe(senderText),
    stage: maybe(senderText),
    sip_status_code: maybe(nonNegativeInt),
    retryable: maybe(z.boolean()),
  }),
  'call.completed': z.looseObject({
    duration_ms: maybe(nonNegativeInt),
    ended_reason: maybe(senderText),
    success: maybe(z.boolean()),
    /** 0 (worst) to 1 (best): providers scoring 0-100 or 1-5 are scaled by the sender. */
    quality_score: maybe(z.number().min(0).max(1)),
    summary: maybe(senderText),
    sentiment: maybe(senderText),
    cost_usd: maybe(nonNegativeUsd),
    recording_url: maybe(senderText),
    structured_data: maybe(jsonValue),
  }),
  /** Earshot's own: no event about the call for `abandon_after_ms` after `silent_since`, and no end. */
  'call.abandoned': z.looseObject({
    /** When the last event about the call that Earshot had seen happened. */
    silent_since: timestamp,
    /** The silence the tenant's setting allowed before a call counts as abandoned. */
    abandon_after_ms: nonNegativeLong,
  }),
} as const;
