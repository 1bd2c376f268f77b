import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiError,
  CallDetailSchema,
  CallResourceSchema,
  CallListPageSchema,
  CallListQuerySchema,
  CallParamsSchema,
  ErrorBodySchema,
  type CallDetail,
  type CallListPage,
  type CallListQuery,
  type CallSort,
} from '@earshot/contracts';
import { sql, type Statements, type SQLQuery, type TenantReads } from '@earshot/db';
import { renderedAs, windowOf, pageOf, pageText, pagingOf, type Page, type Paging, ROUTE_ERRORS } from '@earshot/server';
import { isoTime } from '../json-in-sql';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

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
  if (field === 'startedAt')
    return descending ? sql`(started_at, id) < (${after.v}::timestamptz, ${id})` : sql`(started_at, id) > (${after.v}::timestamptz, ${id})`;
  if (after.v === null) return descending ? sql`((${column} is null and id < ${id}) or ${column} is not null)` : sql`(${column} is null and id > ${id})`;
  return descending
    ? sql`(${column} < ${after.v} or (${column} = ${after.v} and id < ${id}))`
    : sql`((${column} > ${after.v} or (${column} = ${after.v} and id > ${id})) or ${column} is null)`;
}

/** The statement GET /calls runs, in the caller's tenant transaction: each row one call, rendered as JSON. */
export function callPageStatement(query: CallListQuery, paging: Paging): SQLQuery {
  const { column, descending } = sortOf(query.sort);
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CallWithDetailSchema = CallDetailSchema.shape.call;
type Rendered = { call: string };
/** What a cursor takes from a page's last call: its sort fields and id, not the whole call checked on every page. */
const CallPositionSchema = CallResourceSchema.pick({ id: true, startedAt: true, durationMs: true, qualityScore: true });

/** Where a page of calls starts; its cursor's value is read as the sort's field is kept. */
export function callPaging(query: CallListQuery): Paging {
  const { field } = sortOf(query.sort);
  return pagingOf(query, { value: field === 'startedAt' ? 'time' : field === 'durationMs' ? 'integer' : 'float', id: 'uuid' });
}

/** A page of the tenant's calls, each as the JSON text Postgres rendered: what GET /calls answers. */
async function readRenderedCallPage(tx: Statements, query: CallListQuery): Promise<Page<string>> {
  const { field } = sortOf(query.sort);
  const paging = callPaging(query);
  const rows = (await tx.query(callPageStatement(query, paging))) as Rendered[];
  const position = (row: Rendered) => {
    const call = CallPositionSchema.parse(JSON.parse(row.call));
    return { v: call[field], id: call.id };
  };
  return pageOf(rows, paging, position, (row) => row.call);
}

/** The same page with its calls as values: what GraphQL's `calls` resolves to. */
export async function readCallPage(tx: Statements, query: CallListQuery): Promise<CallListPage> {
  const page = await readRenderedCallPage(tx, query);
  return { ...page, items: page.items.map((item) => CallResourceSchema.parse(JSON.parse(item))) };
}

/** One call with its turns, transcript and traces as the JSON text Postgres rendered, or null: what GET /calls/{id} answers. */
async function readRenderedCallDetail(tx: Statements, id: string): Promise<string | null> {
  // Not a uuid is as absent as another tenant's call: null either way, so ids tell nothing.
  if (!UUID.test(id)) return null;
  const [row] = (await tx.query(callDetailStatement(id))) as Rendered[];
  return row?.call ?? null;
}

/** The same call as a value, or null: what GraphQL's `call` resolves to. */
export async function readCallDetail(tx: Statements, id: string): Promise<CallDetail['call'] | null> {
  const call = await readRenderedCallDetail(tx, id);
  return call === null ? null : CallWithDetailSchema.parse(JSON.parse(call));
}

/** GET /calls and GET /calls/{id}. */
export function registerCallRoutes(app: FastifyInstance, reads: TenantReads): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/calls',
    {
      schema: { querystring: CallListQuerySchema, response: { 200: CallListPageSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /calls') },
    },
    async (request) => renderedAs<CallListPage>(pageText(await readAs(reads, request, (tx) => readRenderedCallPage(tx, request.query)))),
  );

  routes.get(
    '/calls/:id',
    {
      schema: { params: CallParamsSchema, response: { 200: CallDetailSchema, 404: ErrorBodySchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /calls/:id') },
    },
    async (request) => {
      const { id } = request.params;
      const call = await readAs(reads, request, (tx) => readRenderedCallDetail(tx, id));
      if (call === null) throw new ApiError('NOT_FOUND', `no call with id ${id}`);
      return renderedAs<CallDetail>(`{"ok":true,"call":${call}}`);
    },
  );
}
