import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const number = optional(z.number());
const string = optional(z.string());

/** A latency series of Retell's call object: percentiles and every data point, in ms. */
const LatencySeriesSchema = optional(
  z.looseObject({ p50: number, p90: number, p95: number, p99: number, max: number, min: number, num: number, values: optional(z.array(z.number())) }),
);

const WordSchema = z.looseObject({ word: string, start: number, end: number });
const UtteranceSchema = z.looseObject({ role: z.string(), content: string, words: optional(z.array(WordSchema)) });

/** An item of transcript_with_tool_calls: an utterance, a tool call, its result, a node transition, a DTMF digit... */
const TimelineItemSchema = z.looseObject({
  role: z.string(),
  content: optional(z.unknown()),
  words: optional(z.array(WordSchema)),
  tool_call_id: string,
  name: string,
  arguments: optional(z.unknown()),
  successful: optional(z.boolean()),
  former_node_id: string,
  former_node_name: string,
  new_node_id: string,
  new_node_name: string,
  transition_type: string,
});

/**
 * Retell's call object as its webhooks carry it (retell-sdk's
 * PhoneCallResponse / WebCallResponse): only call_id and agent_id are
 * required, every field the mapping reads is typed, and the rest is kept.
 */
const RetellCallSchema = z.looseObject({
  call_id: z.string().min(1),
  agent_id: z.string().min(1),
  agent_version: optional(z.number()),
  agent_name: string,
  call_type: string,
  call_status: string,
  direction: optional(z.enum(['inbound', 'outbound'])),
  from_number: string,
  to_number: string,
  start_timestamp: number,
  end_timestamp: number,
  duration_ms: number,
  disconnection_reason: string,
  transcript_object: optional(z.array(UtteranceSchema)),
  transcript_with_tool_calls: optional(z.array(TimelineItemSchema)),
  recording_url: string,
  recording_multi_channel_url: string,
  scrubbed_recording_url: string,
  public_log_url: string,
  metadata: optional(z.unknown()),
  telephony_identifier: optional(z.looseObject({ twilio_call_sid: string })),
  transfer_destination: string,
  transfer_option: optional(z.unknown()),
  transfer_end_timestamp: number,
  latency: optional(
    z.looseObject({
      e2e: LatencySeriesSchema,
      asr: LatencySeriesSchema,
      llm: LatencySeriesSchema,
      tts: LatencySeriesSchema,
      knowledge_base: LatencySeriesSchema,
      s2s: LatencySeriesSchema,
      llm_websocket_network_rtt: LatencySeriesSchema,
    }),
  ),
  llm_token_usage: optional(z.looseObject({ average: number, num_requests: number, values: optional(z.array(z.number())) })),
  call_cost: optional(z.looseObject({ combined_cost: number, total_duration_seconds: number, product_costs: optional(z.array(z.unknown())) })),
  call_analysis: optional(
    z.looseObject({
      call_successful: optional(z.boolean()),
      call_summary: string,
      user_sentiment: string,
      in_voicemail: optional(z.boolean()),
      custom_analysis_data: optional(z.unknown()),
    }),
  ),
});
export type RetellCall = z.infer<typeof RetellCallSchema>;
export type RetellLatencySeries = z.infer<typeof LatencySeriesSchema>;
export type RetellUtterance = z.infer<typeof UtteranceSchema>;
export type RetellTimelineItem = z.infer<typeof TimelineItemSchema>;

/** Every Retell webhook: `{ event, call }`. */
export const RetellWebhookSchema = z.looseObject({ event: z.string().min(1), call: RetellCallSchema });
