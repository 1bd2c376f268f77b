import type { CallListQuery, CallSort } from '@earshot/contracts';
import { sql, type SQLQuery, type Statements } from '@earshot/db';
import { windowOf, type Paging } from '@earshot/server';
import { isoTime } from './json-in-sql';

const SORT_COLUMNS = { startedAt: 'started_at', durationMs: 'duration_ms', qualityScore: 'quality_score' } as const;

const time = (alias: string, column: string) => isoTime(sql.ident(alias, column));

/**
 * A call as the projector renders it (calls.resource), or, for a row written
 * before the projector did, rendered here the same way: to_json over the
 * API's field names, times in toISOString's form. The fallback runs only
 * for a row without a resource.
 */
const CALL = sql`coalesce(c.resource, (select to_json(r)::text from (select c.id, c.agent_id as "agentId", c.status, ${time('c', 'started_at')} as "startedAt",
  ${time('c', 'answered_at')} as "answeredAt", ${time('c', 'ended_at')} as "endedAt", c.duration_ms as "durationMs", c.quality_score as "qualityScore",
  row(c.latency_asr_ms, c.latency_llm_ms, c.latency_tts_ms, c.latency_total_ms)::latency_breakdown as latency, c.provider, c.provider_call_id as "providerCallId",
  c.end_reason as "endReason", c.turn_count as "turnCount", c.interruptions, c.tool_call_count as "toolCallCount", c.provider_error_count as "providerErrorCount",
  c.cost_usd as "costUsd", c.success, c.direction, c.agent_version as "agentVersion", c.customer_id as "customerId", c.recording_url as "recordingUrl", c.summary) r))`;

/** The call field a sort orders by, and its direction. */
export function callSortOf(sort: CallSort): { field: keyof typeof SORT_COLUMNS; descending: boolean } {
  const descending = sort.startsWith('-');
  return { field: (descending ? sort.slice(1) : sort) as keyof typeof SORT_COLUMNS, descending };
}

/**
 * Keyset condition after the cursor. startedAt is never null, so a row
 * comparison walks the index; durationMs and qualityScore may be null, and
 * nulls come last ascending, first descending (the index's own order).
 */
function afterCursor(sort: CallSort, paging: Paging): SQLQuery {
  const { field, descending } = callSortOf(sort);
  const column = sql.ident(SORT_COLUMNS[field]);
  const after = paging.after;
  if (!after) return sql`true`;
  const id = sql`${after.id}::uuid`;
  if (field === 'startedAt')
    return descending ? sql`(started_at, id) < (${after.v}::timestamptz, ${id})` : sql`(started_at, id) > (${after.v}::timestamptz, ${id})`;
  if (after.v === null) return descending ? sql`((${column} is null and id < ${id}) or ${column} is not null)` : sql`(${column} is null and id > ${id})`;
  return descending
    ? sql`(${column} < ${after.v} or (${column} = ${after.v} and id < ${id}))`
    : sql`((${column} > ${after.v} or (${column} = ${after.v} and id > ${id})) or ${column} is null)`;
}

/** The statement GET /calls runs, in the caller's tenant transaction: each row one call, rendered as JSON. */
export function callPageStatement(query: CallListQuery, paging: Paging): SQLQuery {
  const { field, descending } = callSortOf(query.sort);
  const column = sql.ident(SORT_COLUMNS[field]);
  const filters: SQLQuery[] = [afterCursor(query.sort, paging)];
  if (query.status) filters.push(sql`status = ${query.status}`);
  if (query.agentId) filters.push(sql`agent_id = ${query.agentId}`);
  if (query.from) filters.push(sql`started_at >= ${query.from}::timestamptz`);
  if (query.to) filters.push(sql`started_at < ${query.to}::timestamptz`);
  const order = descending ? sql`order by ${column} desc nulls first, id desc` : sql`order by ${column} asc nulls last, id asc`;
  return sql`select ${CALL} as call from calls c where ${sql.join(filters, sql` and `)} ${order} ${windowOf(paging)}`;
}

/**
 * The statement GET /calls/{id} runs, in one round trip: the call as GET
 * /calls renders it, with its turns, transcript and traces added as
 * members before its closing brace.
 */
export function callDetailStatement(id: string): SQLQuery {
  return sql`
    select left(${CALL}, -1) || ',"turns":' || t.list || ',"transcript":' || s.list || ',"traces":' || r.list || '}' as call
    from calls c,
      lateral (select coalesce(json_agg(json_build_object('turnId', t.turn_id, 'occurredAt', ${time('t', 'occurred_at')},
          'latency', row(t.asr_ms, t.llm_ms, t.tts_ms, t.total_ms)::latency_breakdown,
          'breakdown', row(t.eou_delay_ms, t.transcription_delay_ms, t.llm_ttft_ms, t.tts_ttfb_ms, t.e2e_ms, t.unattributed_ms)::turn_breakdown,
          'interrupted', t.interrupted, 'text', t.text, 'model', t.model)
          order by t.occurred_at, t.turn_id)::text, '[]') as list
        from turns t where t.call_id = c.id) t,
      lateral (select coalesce(json_agg(json_build_object('turnId', s.turn_id, 'speaker', s.speaker, 'text', s.text, 'isFinal', s.is_final, 'startMs', s.start_ms,
          'endMs', s.end_ms, 'occurredAt', ${time('s', 'occurred_at')}) order by s.occurred_at, s.turn_id, s.speaker)::text, '[]') as list
        from transcripts s where s.call_id = c.id) s,
      lateral (select coalesce(json_agg(json_build_object('kind', r.kind, 'traceId', r.trace_id, 'name', r.name, 'status', r.status, 'turnId', r.turn_id,
          'startedAt', ${time('r', 'started_at')}, 'endedAt', ${time('r', 'ended_at')}, 'durationMs', r.duration_ms) order by r.started_at nulls last, r.kind, r.trace_id)::text, '[]') as list
        from traces r where r.call_id = c.id) r
    where c.id = ${id}::uuid`;
}

/** A page of the tenant's calls, each the JSON text Postgres rendered. */
export async function renderedCalls(tx: Statements, query: CallListQuery, paging: Paging): Promise<string[]> {
  return ((await tx.query(callPageStatement(query, paging))) as { call: string }[]).map((row) => row.call);
}

/** One call (`id` a uuid) with its turns, transcript and traces, as the JSON text Postgres rendered; null when the tenant has no such call. */
export async function renderedCallDetail(tx: Statements, id: string): Promise<string | null> {
  const [row] = (await tx.query(callDetailStatement(id))) as { call: string }[];
  return row?.call ?? null;
}

/** The status and quality of each of the agent's calls started in [from, to). */
export async function callResults(
  tx: Statements,
  agent: string,
  window: { from: Date; to: Date },
): Promise<{ status: string; quality_score: number | null }[]> {
  return (await tx.query(sql`
    select status, quality_score from calls where agent_id = ${agent} and started_at >= ${window.from} and started_at < ${window.to}`)) as {
    status: string;
    quality_score: number | null;
  }[];
}

export interface SilentCall {
  id: string;
  provider: string;
  provider_call_id: string;
  agent_id: string;
  last_event_at: Date;
}

/** Up to `limit` of the tenant's calls still in progress whose last event is before `cutoff`, the longest silent first. */
export async function silentCalls(tx: Statements, cutoff: Date, limit: number): Promise<SilentCall[]> {
  return (await tx.query(sql`
    select id::text as id, provider, provider_call_id, agent_id, last_event_at from calls
     where status = 'in_progress' and last_event_at < ${cutoff}
     order by last_event_at limit ${limit}`)) as SilentCall[];
}

/** Deletes the tenant's calls started before `before`, with their turns, transcripts and traces; answers how many calls went. */
export async function deleteCallsStartedBefore(tx: Statements, tenantId: string, before: Date): Promise<number> {
  const old = sql`select id from calls where tenant_id = ${tenantId} and started_at < ${before}`;
  for (const table of ['turns', 'transcripts', 'traces'])
    await tx.query(sql`delete from ${sql.ident(table)} where tenant_id = ${tenantId} and call_id in (${old})`);
  const [row] = (await tx.query(
    sql`with gone as (delete from calls where tenant_id = ${tenantId} and started_at < ${before} returning 1) select count(*)::int as n from gone`,
  )) as {
    n: number;
  }[];
  return row?.n ?? 0;
}

/**
 * Where each read model keeps rows of one call (by its lowercase id), the
 * call's own row last. An outcome names its call as the tenant wrote it, so
 * it is matched in any case.
 */
const ROWS_OF_A_CALL: readonly [table: string, ofCall: (callId: string) => SQLQuery][] = [
  ['outcomes', (callId) => sql`lower(call_id) = ${callId}`],
  ['turns', (callId) => sql`call_id = ${callId}::uuid`],
  ['transcripts', (callId) => sql`call_id = ${callId}::uuid`],
  ['traces', (callId) => sql`call_id = ${callId}::uuid`],
  ['calls', (callId) => sql`id = ${callId}::uuid`],
];

/** Deletes every read-model row of one call (its outcomes, turns, transcripts, traces, then the call) for its erasure; answers how many rows went. */
export async function deleteCallRows(tx: Statements, tenantId: string, callId: string): Promise<number> {
  let rows = 0;
  for (const [table, ofCall] of ROWS_OF_A_CALL) {
    const [gone] = (await tx.query(
      sql`with gone as (delete from ${sql.ident(table)} where tenant_id = ${tenantId} and ${ofCall(callId.toLowerCase())} returning 1)
          select count(*)::int as n from gone`,
    )) as { n: number }[];
    rows += gone?.n ?? 0;
  }
  return rows;
}
