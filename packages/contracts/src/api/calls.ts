import { z } from 'zod';
import { listPageSchema, pagingQuery, queryTime } from './list';
import { storedText } from '../text';

export const CALL_RESOURCE_STATUSES = ['completed', 'failed', 'in_progress', 'abandoned', 'escalated'] as const;

/** Sort fields of GET /calls: ascending, or descending with a leading `-`. */
export const CALL_SORTS = ['startedAt', '-startedAt', 'durationMs', '-durationMs', 'qualityScore', '-qualityScore'] as const;
export type CallSort = (typeof CALL_SORTS)[number];

const ms = z.number().int().nullable();

/** The spec's Call, with what else the read model knows about it. */
export const CallResourceSchema = z.object({
  id: z.uuid(),
  agentId: z.string(),
  status: z.enum(CALL_RESOURCE_STATUSES),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationMs: ms,
  qualityScore: z.number().nullable(),
  latency: z.object({ asrMs: ms, llmMs: ms, ttsMs: ms, totalMs: ms }).describe('median of each part over the call’s turns'),
  provider: z.string(),
  providerCallId: z.string(),
  endReason: z.string().nullable(),
  turnCount: z.number().int(),
  interruptions: z.number().int(),
  toolCallCount: z.number().int(),
  providerErrorCount: z.number().int(),
  costUsd: z.number().nullable(),
  success: z.boolean().nullable(),
  direction: z.string().nullable(),
  agentVersion: z.string().nullable(),
  customerId: z.string().nullable(),
  recordingUrl: z.string().nullable(),
  summary: z.string().nullable(),
});
export type CallResource = z.infer<typeof CallResourceSchema>;

/** What voice frameworks (LiveKit Agents, Pipecat) measure per turn, in ms; null where nothing reported it. */
export const TurnBreakdownSchema = z
  .object({
    eouMs: ms.describe('end of the customer’s speech to the end-of-turn decision'),
    sttMs: ms.describe('end of the customer’s speech to the final transcript; runs alongside eouMs'),
    llmTtftMs: ms.describe('language model time to first token (the turn’s first model call)'),
    ttsTtfbMs: ms.describe('speech synthesis time to first byte (the turn’s first synthesis)'),
    e2eMs: ms.describe('end of the customer’s speech to the first agent audio'),
    unattributedMs: ms.describe('what no stage accounts for: eouMs + llmTtftMs + ttsTtfbMs + unattributedMs = e2eMs (a stage not reported counts as 0)'),
  })
  .describe('the turn’s stages');

export const CallTurnSchema = z.object({
  turnId: z.string(),
  occurredAt: z.string(),
  latency: z.object({ asrMs: ms, llmMs: ms, ttsMs: ms, totalMs: ms }).describe('the parts as reported; null until a report of the turn carried one'),
  breakdown: TurnBreakdownSchema,
  interrupted: z.boolean(),
  text: z.string().nullable(),
  model: z.string().nullable(),
});

export const TranscriptSegmentSchema = z.object({
  turnId: z.string(),
  speaker: z.string(),
  text: z.string(),
  isFinal: z.boolean(),
  startMs: z.number().int().nullable(),
  endMs: z.number().int().nullable(),
  occurredAt: z.string(),
});

export const TraceReferenceSchema = z.object({
  kind: z.string(),
  traceId: z.string(),
  name: z.string(),
  status: z.string(),
  turnId: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
});

/** GET /calls/{id}: the call with its turns, transcript and traces. */
export const CallDetailSchema = z.object({
  ok: z.literal(true),
  call: CallResourceSchema.extend({
    turns: z.array(CallTurnSchema),
    transcript: z.array(TranscriptSegmentSchema),
    traces: z.array(TraceReferenceSchema),
  }),
});
export type CallDetail = z.infer<typeof CallDetailSchema>;

/** A calls cursor holds a value of whichever sort made it: a time, a duration or a quality score, the last two maybe null. */
const CALL_CURSOR = { value: 'float', id: 'uuid' } as const;

export const CallListQuerySchema = pagingQuery(50, CALL_CURSOR).extend({
  status: z.enum(CALL_RESOURCE_STATUSES).optional(),
  agentId: storedText(200).min(1).optional(),
  from: queryTime.optional().describe('calls started at or after'),
  to: queryTime.optional().describe('calls started before'),
  sort: z.enum(CALL_SORTS).default('-startedAt'),
});
export type CallListQuery = z.infer<typeof CallListQuerySchema>;

export const CallListPageSchema = listPageSchema(CallResourceSchema);
export type CallListPage = z.infer<typeof CallListPageSchema>;

export const CallParamsSchema = z.object({ id: storedText(200).min(1) });

const erasureReason = storedText(500).min(1).describe('why the call is erased (kept in the audit log)');

/** DELETE /calls/{id}: the reason in the query, since many HTTP clients and proxies send or keep no body with a DELETE. */
export const CallErasureQuerySchema = z.object({ reason: erasureReason });

/** What erasing a call did: whether its data key was destroyed (so its events in the log cannot be read again) and how many rows went. */
export const CallErasedSchema = z.object({
  ok: z.literal(true),
  id: z.string(),
  dataKeyDestroyed: z.boolean().describe('false when its events were appended in the clear (EARSHOT_SEAL_EVENTS=false) or it was erased before'),
  rowsDeleted: z.number().int().describe('rows of the call, its turns, transcript, traces and outcomes'),
  alreadyErased: z.boolean().describe('true when an earlier erasure had already removed it'),
});
export type CallErased = z.infer<typeof CallErasedSchema>;
