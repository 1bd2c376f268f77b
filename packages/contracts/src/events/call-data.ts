import { z } from 'zod';
import { nonNegativeUsd, storedId } from '../text';
import { jsonValue, maybe, nonNegativeInt, nonNegativeLong, timestamp } from './fields';

/** Contents of the call lifecycle events, from Retell call_started/call_ended/call_analyzed, Vapi status-update and end-of-call-report, and Twilio status callbacks. */
export const CALL_DATA = {
  'call.started': z.looseObject({
    call_type: maybe(z.string()),
    telephony_provider: maybe(z.string()),
    telephony_call_id: maybe(z.string()),
    llm_model: maybe(z.string()),
    asr_model: maybe(z.string()),
    tts_voice: maybe(z.string()),
    language: maybe(z.string()),
  }),
  'call.ringing': z.looseObject({
    telephony_provider: maybe(z.string()),
    telephony_call_id: maybe(z.string()),
  }),
  'call.answered': z.looseObject({
    telephony_call_id: maybe(z.string()),
    ring_duration_ms: maybe(nonNegativeInt),
    answered_by: maybe(z.string()),
  }),
  'call.ended': z.looseObject({
    ended_reason: maybe(z.string()),
    disconnection_reason: maybe(z.string()),
    duration_ms: maybe(nonNegativeInt),
    cost_usd: maybe(nonNegativeUsd),
  }),
  'call.transferred': z.looseObject({
    to: storedId,
    reason: maybe(z.string()),
    transfer_type: maybe(z.string()),
  }),
  'call.failed': z.looseObject({
    error_code: maybe(z.string()),
    message: maybe(z.string()),
    stage: maybe(z.string()),
    sip_status_code: maybe(nonNegativeInt),
    retryable: maybe(z.boolean()),
  }),
  'call.completed': z.looseObject({
    duration_ms: maybe(nonNegativeInt),
    ended_reason: maybe(z.string()),
    success: maybe(z.boolean()),
    /** 0 (worst) to 1 (best): providers scoring 0-100 or 1-5 are scaled by the sender. */
    quality_score: maybe(z.number().min(0).max(1)),
    summary: maybe(z.string()),
    sentiment: maybe(z.string()),
    cost_usd: maybe(nonNegativeUsd),
    recording_url: maybe(z.string()),
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
