import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiError,
  CallDetailSchema,
  CallListPageSchema,
  CallListQuerySchema,
  CallParamsSchema,
  ErrorBodySchema,
  type CallDetail,
  type CallListPage,
  type CallListQuery,
  type CallResource,
  type CallSort,
} from '@earshot/contracts';
import { sql, type Statements, type SQLQuery, type TenantReads } from '@earshot/db';
import { iso, windowOf } from '../keyset';
import { pageOf, pagingOf, type Paging } from '../paging';
import { COMMON_ERRORS } from '../route-schema';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

const SORT_COLUMNS = { startedAt: 'started_at', durationMs: 'duration_ms', qualityScore: 'quality_score' } as const;

export interface CallRow {
  id: string;
  agent_id: string;
  status: CallResource['status'];
  started_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
  duration_ms: number | null;
  quality_score: number | null;
  latency_asr_ms: number | null;
  latency_llm_ms: number | null;
  latency_tts_ms: number | null;
  latency_total_ms: number | null;
  provider: string;
  provider_call_id: string;
  end_reason: string | null;
  turn_count: number;
  interruptions: number;
  tool_call_count: number;
  provider_error_count: number;
  cost_usd: number | null;
  success: boolean | null;
  direction: string | null;
  agent_version: string | null;
  customer_id: string | null;
  recording_url: string | null;
  summary: string | null;
}

const CALL_COLUMNS = sql`id, agent_id, status, started_at, answered_at, ended_at, duration_ms, quality_score, latency_asr_ms, latency_llm_ms, latency_tts_ms,
  latency_total_ms, provider, provider_call_id, end_reason, turn_count, interruptions, tool_call_count, provider_error_count, cost_usd, success, direction,
  agent_version, customer_id, recording_url, summary`;

export function callResource(row: CallRow): CallResource {
  return {
    id: row.id,
    agentId: row.agent_id,
    status: row.status,
    startedAt: row.started_at.toISOString(),
    answeredAt: iso(row.answered_at),
    endedAt: iso(row.ended_at),
    durationMs: row.duration_ms,
    qualityScore: row.quality_score,
    latency: { asrMs: row.latency_asr_ms, llmMs: row.latency_llm_ms, ttsMs: row.latency_tts_ms, totalMs: row.latency_total_ms },
    provider: row.provider,
    providerCallId: row.provider_call_id,
    endReason: row.end_reason,
    turnCount: row.turn_count,
    interruptions: row.interruptions,
    toolCallCount: row.tool_call_count,
    providerErrorCount: row.provider_error_count,
    costUsd: row.cost_usd,
    success: row.success,
    direction: row.direction,
    agentVersion: row.agent_version,
    customerId: row.customer_id,
    recordingUrl: row.recording_url,
    summary: row.summary,
  };
}

function sortOf(sort: CallSort): { column: SQLQuery; descending: boolean; field: keyof typeof SORT_COLUMNS } {
  const descending = sort.startsWith('-');
  const field = (descending ? sort.slice(1) : sort) as keyof typeof SORT_COLUMNS;
  return { column: sql.ident(SORT_COLUMNS[field]), descending, field };
}

/**
 * Keyset condition after the cursor. startedAt is never null, so a row
 * comparison walks the index; durationMs and qualityScore may be null, and
 * nulls come last ascending, first descending (the index's own order).
 */
function afterCursor(sort: CallSort, paging: Paging): SQLQuery {
  const { column, descending, field } = sortOf(sort);
  const after = paging.after;
  if (!after) return sql`true`;
  const id = sql`${after.id}::uuid`;
  if (field === 'startedAt') return descending ? sql`(started_at, id) < (${after.v}::timestamptz, ${id})` : sql`(started_at, id) > (${after.v}::timestamptz, ${id})`;
  if (after.v === null) return descending ? sql`((${column} is null and id < ${id}) or ${column} is not null)` : sql`(${column} is null and id > ${id})`;
  return descending
    ? sql`(${column} < ${after.v} or (${column} = ${after.v} and id < ${id}))`
    : sql`((${column} > ${after.v} or (${column} = ${after.v} and id > ${id})) or ${column} is null)`;
}

/** The statement GET /calls runs, in the caller's tenant transaction. */
export function callPageStatement(query: CallListQuery, paging: Paging): SQLQuery {
  const { column, descending } = sortOf(query.sort);
  const filters: SQLQuery[] = [afterCursor(query.sort, paging)];
  if (query.status) filters.push(sql`status = ${query.status}`);
  if (query.agentId) filters.push(sql`agent_id = ${query.agentId}`);
  if (query.from) filters.push(sql`started_at >= ${query.from}::timestamptz`);
  if (query.to) filters.push(sql`started_at < ${query.to}::timestamptz`);
  const order = descending ? sql`order by ${column} desc nulls first, id desc` : sql`order by ${column} asc nulls last, id asc`;
  return sql`select ${CALL_COLUMNS} from calls where ${sql.join(filters, sql` and `)} ${order} ${windowOf(paging)}`;
}

/** The statement GET /calls/{id} runs: the call, its turns, transcript and traces in one round trip. */
export function callDetailStatement(id: string): SQLQuery {
  return sql`
    select ${CALL_COLUMNS},
      coalesce((select jsonb_agg(jsonb_build_object('turnId', t.turn_id, 'occurredAt', t.occurred_at, 'asrMs', t.asr_ms, 'llmMs', t.llm_ms, 'ttsMs', t.tts_ms,
          'totalMs', t.total_ms, 'interrupted', t.interrupted, 'text', t.text, 'model', t.model) order by t.occurred_at, t.turn_id)
        from turns t where t.call_id = c.id), '[]') as turns,
      coalesce((select jsonb_agg(jsonb_build_object('turnId', s.turn_id, 'speaker', s.speaker, 'text', s.text, 'isFinal', s.is_final, 'startMs', s.start_ms,
          'endMs', s.end_ms, 'occurredAt', s.occurred_at) order by s.occurred_at, s.turn_id, s.speaker)
        from transcripts s where s.call_id = c.id), '[]') as transcript,
      coalesce((select jsonb_agg(jsonb_build_object('kind', r.kind, 'traceId', r.trace_id, 'name', r.name, 'status', r.status, 'turnId', r.turn_id,
          'startedAt', r.started_at, 'endedAt', r.ended_at, 'durationMs', r.duration_ms) order by r.started_at nulls last, r.kind, r.trace_id)
        from traces r where r.call_id = c.id), '[]') as traces
    from calls c where c.id = ${id}::uuid`;
}

type DetailRow = CallRow & { turns: DetailTurn[]; transcript: CallDetail['call']['transcript']; traces: CallDetail['call']['traces'] };
interface DetailTurn {
  turnId: string;
  occurredAt: string;
  asrMs: number;
  llmMs: number;
  ttsMs: number;
  totalMs: number;
  interrupted: boolean;
  text: string | null;
  model: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const utc = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** Where a page of calls starts; its cursor's value is read as the sort's field is kept. */
export function callPaging(query: CallListQuery): Paging {
  const { field } = sortOf(query.sort);
  return pagingOf(query, { value: field === 'startedAt' ? 'time' : field === 'durationMs' ? 'integer' : 'float', id: 'uuid' });
}

/** A page of the tenant's calls: what GET /calls answers and GraphQL's `calls` resolves to. */
export async function readCallPage(tx: Statements, query: CallListQuery): Promise<CallListPage> {
  const field = sortOf(query.sort).field;
  const paging = callPaging(query);
  const rows = (await tx.query(callPageStatement(query, paging))) as CallRow[];
  return pageOf(rows, paging, (row) => ({ v: field === 'startedAt' ? row.started_at.toISOString() : field === 'durationMs' ? row.duration_ms : row.quality_score, id: row.id }), callResource);
}

/** One call with its turns, transcript and traces, or null: what GET /calls/{id} answers and GraphQL's `call` resolves to. */
export async function readCallDetail(tx: Statements, id: string): Promise<CallDetail['call'] | null> {
  // Not a uuid is as absent as another tenant's call: null either way, so ids tell nothing.
  if (!UUID.test(id)) return null;
  const [row] = (await tx.query(callDetailStatement(id))) as DetailRow[];
  if (!row) return null;
  return {
    ...callResource(row),
    turns: row.turns.map((t) => ({ turnId: t.turnId, occurredAt: new Date(t.occurredAt).toISOString(), latency: { asrMs: t.asrMs, llmMs: t.llmMs, ttsMs: t.ttsMs, totalMs: t.totalMs }, interrupted: t.interrupted, text: t.text, model: t.model })),
    transcript: row.transcript.map((s) => ({ ...s, occurredAt: new Date(s.occurredAt).toISOString() })),
    traces: row.traces.map((r) => ({ ...r, startedAt: utc(r.startedAt), endedAt: utc(r.endedAt) })),
  };
}

/** GET /calls and GET /calls/{id}. */
export function registerCallRoutes(app: FastifyInstance, reads: TenantReads, requestsPerMinute: number): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/calls', {
    schema: { querystring: CallListQuerySchema, response: { 200: CallListPageSchema, ...COMMON_ERRORS } },
    config: { policy: policyOf('GET /calls', requestsPerMinute) },
  }, async (request) => readAs(reads, request, (tx) => readCallPage(tx, request.query)));

  routes.get('/calls/:id', {
    schema: { params: CallParamsSchema, response: { 200: CallDetailSchema, 404: ErrorBodySchema, ...COMMON_ERRORS } },
    config: { policy: policyOf('GET /calls/:id', requestsPerMinute) },
  }, async (request) => {
    const { id } = request.params;
    const call = await readAs(reads, request, (tx) => readCallDetail(tx, id));
    if (!call) throw new ApiError('NOT_FOUND', `no call with id ${id}`);
    return { ok: true as const, call };
  });
}
