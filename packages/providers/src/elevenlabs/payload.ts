import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const number = optional(z.number());
const string = optional(z.string());

/** A transcript entry (@elevenlabs/elevenlabs-js ConversationHistoryTranscriptCommonModelOutput, as sent: snake_case). */
const TranscriptEntrySchema = z.looseObject({
  role: z.string(),
  message: string,
  time_in_call_secs: number,
  interrupted: optional(z.boolean()),
  agent_metadata: optional(z.looseObject({ agent_id: string })),
  tool_calls: optional(
    z.array(z.looseObject({ request_id: z.string().min(1), tool_name: z.string().min(1), params_as_json: optional(z.unknown()), type: string })),
  ),
  tool_results: optional(
    z.array(
      z.looseObject({
        request_id: z.string().min(1),
        tool_name: z.string().min(1),
        result_value: optional(z.unknown()),
        is_error: optional(z.boolean()),
        tool_latency_secs: number,
      }),
    ),
  ),
  feedback: optional(z.looseObject({ score: string })),
  conversation_turn_metrics: optional(z.looseObject({ metrics: optional(z.record(z.string(), z.looseObject({ elapsed_time: number }))) })),
});
export type ElevenLabsTranscriptEntry = z.infer<typeof TranscriptEntrySchema>;

/** ConversationHistoryMetadataCommonModel: times in Unix seconds, cost in credits (cost_fiat in USD). */
const MetadataSchema = z.looseObject({
  start_time_unix_secs: number,
  call_duration_secs: number,
  cost: number,
  cost_fiat: number,
  termination_reason: string,
  main_language: string,
  // overall_score is a like or dislike; rating (1 to 5) is the number the caller gave.
  feedback: optional(z.looseObject({ rating: number })),
  phone_call: optional(z.looseObject({ type: string, direction: string, agent_number: string, external_number: string, call_sid: string })),
});

/** ConversationHistoryAnalysisCommonModel: the verdict, the summary, each criterion's result and each collected field. */
const AnalysisSchema = z.looseObject({
  call_successful: string,
  transcript_summary: string,
  evaluation_criteria_results: optional(z.record(z.string(), z.looseObject({ criteria_id: string, result: string, rationale: string }))),
  data_collection_results: optional(z.record(z.string(), z.looseObject({ data_collection_id: string, value: optional(z.unknown()), rationale: string }))),
});

const conversation = { agent_id: z.string().min(1), conversation_id: z.string().min(1) };

export const TranscriptionDataSchema = z.looseObject({
  ...conversation,
  status: string,
  user_id: string,
  version_id: string,
  transcript: z.array(TranscriptEntrySchema).default([]),
  metadata: optional(MetadataSchema),
  analysis: optional(AnalysisSchema),
});
export type ElevenLabsTranscription = z.infer<typeof TranscriptionDataSchema>;

export const AudioDataSchema = z.looseObject({ ...conversation, full_audio: z.string() });

export const InitiationFailureDataSchema = z.looseObject({
  ...conversation,
  failure_reason: string,
  metadata: optional(z.looseObject({ type: string, body: optional(z.record(z.string(), z.unknown())) })),
});

/** Every ElevenLabs Agents post-call webhook: `{ type, event_timestamp, data }`. */
export const ElevenLabsWebhookSchema = z.looseObject({ type: z.string().min(1), event_timestamp: number, data: z.looseObject({}) });
