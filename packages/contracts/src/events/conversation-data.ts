import { z } from 'zod';
import { senderText, storedId, storedText } from '../text';
import { maybe, nonNegativeInt, timestamp } from './fields';

export const SPEAKERS = ['agent', 'customer'] as const;
export const STREAM_DIRECTIONS = ['inbound', 'outbound', 'both'] as const;

const stream = {
  stream_id: storedId,
  codec: maybe(senderText),
  sample_rate: maybe(nonNegativeInt),
  channels: maybe(nonNegativeInt),
  direction: maybe(z.enum(STREAM_DIRECTIONS)),
};

const transcript = z.looseObject({
  turn_id: storedId,
  speaker: z.enum(SPEAKERS),
  text: senderText,
  start_ms: maybe(nonNegativeInt),
  end_ms: maybe(nonNegativeInt),
  confidence: maybe(z.number().min(0).max(1)),
  language: maybe(senderText),
});

/**
 * The parts of a turn's voice-to-voice latency, in ms; the Call resource's
 * latency is built from these. From event version 2026-11-24 each part may be
 * left out: a framework that measures the stages in separate spans reports
 * each as it is measured, and the parts of one turn id merge (a 2026-01-01
 * event still needs all four, else its schema refuses it).
 */
export const ResponseLatencySchema = z.looseObject({
  asr_ms: maybe(nonNegativeInt),
  llm_ms: maybe(nonNegativeInt),
  tts_ms: maybe(nonNegativeInt),
  total_ms: maybe(nonNegativeInt),
});

/** Contents of what is said and heard on a call: media streams, transcripts, agent turns (LiveKit and Pipecat per-turn metrics), recordings and feedback. */
export const CONVERSATION_DATA = {
  'audio.stream.started': z.looseObject(stream),
  'audio.stream.stopped': z.looseObject({
    ...stream,
    duration_ms: maybe(nonNegativeInt),
    reason: maybe(senderText),
  }),
  'transcript.partial': transcript,
  'transcript.final': transcript,
  'agent.response.generated': z.looseObject({
    turn_id: storedId,
    latency: ResponseLatencySchema,
    text: maybe(senderText),
    model: maybe(senderText),
    tokens_in: maybe(nonNegativeInt),
    tokens_out: maybe(nonNegativeInt),
    llm_ttft_ms: maybe(nonNegativeInt),
    tts_ttfb_ms: maybe(nonNegativeInt),
    eou_delay_ms: maybe(nonNegativeInt),
    interrupted: maybe(z.boolean()),
    /** From 2026-11-24: end of the customer's speech to the final transcript, as the framework measured it. */
    transcription_delay_ms: maybe(nonNegativeInt),
    /** From 2026-11-24: end of the customer's speech to the first agent audio, as the framework measured it. */
    e2e_ms: maybe(nonNegativeInt),
    /** From 2026-11-24: the part of e2e_ms no named stage accounts for: e2e = eou + llm ttft + tts ttfb + unattributed. */
    unattributed_ms: maybe(nonNegativeInt),
  }),
  'recording.available': z.looseObject({
    recording_id: storedId,
    url: storedText(8_192).min(1),
    duration_ms: maybe(nonNegativeInt),
    format: maybe(senderText),
    channels: maybe(nonNegativeInt),
    expires_at: maybe(timestamp),
  }),
  'customer.feedback.submitted': z.looseObject({
    rating: maybe(nonNegativeInt),
    rating_scale: maybe(nonNegativeInt),
    comment: maybe(senderText),
    channel: maybe(senderText),
  }),
} as const;
