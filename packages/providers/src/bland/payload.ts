import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const number = optional(z.number());
const string = optional(z.string());

/**
 * Bland's call object, which its call webhook posts when a call ends
 * (docs.bland.ai, Call Details): call_id required, every field the mapping
 * reads typed, the rest kept.
 */
export const BlandCallSchema = z.looseObject({
  call_id: z.union([z.string().min(1), z.number()]).transform(String),
  c_id: string,
  to: string,
  from: string,
  inbound: optional(z.boolean()),
  completed: optional(z.boolean()),
  status: string,
  created_at: string,
  started_at: string,
  end_at: string,
  call_length: number,
  corrected_duration: optional(z.union([z.string(), z.number()])),
  call_ended_by: string,
  answered_by: string,
  error_message: string,
  price: number,
  summary: string,
  recording_url: string,
  transferred_to: string,
  transferred_at: string,
  pathway_id: string,
  persona_id: string,
  batch_id: string,
  disposition_tag: string,
  analysis: optional(z.record(z.string(), z.unknown())),
  variables: optional(z.record(z.string(), z.unknown())),
  metadata: optional(z.unknown()),
  transcripts: optional(z.array(z.looseObject({ id: optional(z.union([z.string(), z.number()])), created_at: string, text: string, user: string }))),
  concatenated_transcript: string,
});
export type BlandCall = z.infer<typeof BlandCallSchema>;
