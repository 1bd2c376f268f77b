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
} from '@earshot/contracts';
import type { DataKeys } from '@earshot/auth';
import type { Statements, TenantReads } from '@earshot/db';
import { openConversationText, SEALED_PREFIX, sealedWith } from '@earshot/events';
import { callSortOf, renderedCallDetail, renderedCalls } from '@earshot/read-models';
import { renderedAs, pageOf, pageText, pagingOf, type Page, type Paging, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { callerKeys, readAs, type CallerKeys } from '../tenant-scope';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CallWithDetailSchema = CallDetailSchema.shape.call;
/** What a cursor takes from a page's last call: its sort fields and id, not the whole call checked on every page. */
const CallPositionSchema = CallResourceSchema.pick({ id: true, startedAt: true, durationMs: true, qualityScore: true });

/** Where a page of calls starts; its cursor's value is read as the sort's field is kept. */
export function callPaging(query: CallListQuery): Paging {
  const { field } = callSortOf(query.sort);
  return pagingOf(query, { value: field === 'startedAt' ? 'time' : field === 'durationMs' ? 'integer' : 'float', id: 'uuid' });
}

/** A page of the tenant's calls, each as the JSON text Postgres rendered: what GET /calls answers. */
async function readRenderedCallPage(tx: Statements, query: CallListQuery): Promise<Page<string>> {
  const { field } = callSortOf(query.sort);
  const paging = callPaging(query);
  const calls = await renderedCalls(tx, query, paging);
  const position = (text: string) => {
    const call = CallPositionSchema.parse(JSON.parse(text));
    return { v: call[field], id: call.id };
  };
  return pageOf(calls, paging, position, (text) => text);
}

/** The same page with its calls as values: what GraphQL's `calls` resolves to. */
export async function readCallPage(tx: Statements, query: CallListQuery): Promise<CallListPage> {
  const page = await readRenderedCallPage(tx, query);
  return { ...page, items: page.items.map((item) => CallResourceSchema.parse(JSON.parse(item))) };
}

/**
 * One call with its turns, transcript and traces as the JSON text Postgres rendered, what was said opened, or null: what
 * GET /calls/{id} answers.
 */
async function readRenderedCallDetail(tx: Statements, id: string, keys: CallerKeys): Promise<string | null> {
  // Not a uuid is as absent as another tenant's call: null either way, so ids tell nothing.
  if (!UUID.test(id)) return null;
  const call = await renderedCallDetail(tx, id);
  return call === null ? null : withConversationOpened(call, keys);
}

/**
 * The read models keep what was said as sealed as it came (CONVERSATION_TEXT): it is opened here, for the caller, with
 * the caller's keys. A call with none of it sealed is answered as Postgres rendered it.
 */
async function withConversationOpened(rendered: string, keys: CallerKeys): Promise<string> {
  if (!rendered.includes(`"${SEALED_PREFIX}`)) return rendered;
  const call = JSON.parse(rendered) as Pick<CallDetail['call'], 'turns' | 'transcript'>;
  const said = [...call.turns, ...call.transcript];
  const lookup = await keys(said.flatMap(({ text }) => (text === null ? [] : (sealedWith(text) ?? []))));
  for (const part of said) if (part.text !== null) part.text = openConversationText(part.text, lookup);
  return JSON.stringify(call);
}

/** The same call as a value, or null: what GraphQL's `call` resolves to. */
export async function readCallDetail(tx: Statements, id: string, keys: CallerKeys): Promise<CallDetail['call'] | null> {
  const call = await readRenderedCallDetail(tx, id, keys);
  return call === null ? null : CallWithDetailSchema.parse(JSON.parse(call));
}

/** GET /calls and GET /calls/{id}. */
export function registerCallRoutes(app: FastifyInstance, reads: TenantReads, dataKeys: DataKeys): void {
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
      const call = await readAs(reads, request, (tx) => readRenderedCallDetail(tx, id, callerKeys(dataKeys, request)));
      if (call === null) throw new ApiError('NOT_FOUND', `no call with id ${id}`);
      return renderedAs<CallDetail>(`{"ok":true,"call":${call}}`);
    },
  );
}
