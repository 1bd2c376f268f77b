import type { FastifyRequest } from 'fastify';
import { GraphQLScalarType, valueFromASTUntyped } from 'graphql';
import type { z } from 'zod';
import {
  AlertListQuerySchema,
  AlertListSchema,
  ApiError,
  CallDetailSchema,
  CallListPageSchema,
  CallListQuerySchema,
  CallParamsSchema,
  IncidentListQuerySchema,
  IncidentListSchema,
  LiveSnapshotSchema,
  MetricQuerySchema,
  MetricSeriesSchema,
  OutcomeListQuerySchema,
  OutcomeListSchema,
  validationError,
} from '@earshot/contracts';
import type { DataKeys } from '@earshot/auth';
import type { Statements, TenantReads } from '@earshot/db';
import { readAlertPage } from '../routes/alerts';
import { readCallDetail, readCallPage } from '../routes/calls';
import { readIncidentPage } from '../routes/incidents';
import { readMetric } from '../routes/metrics';
import { readOutcomePage } from '../routes/outcomes';
import { readLiveSnapshot } from '../routes/realtime';
import { ROUTE_SCOPES } from '../route-scopes';
import { callerKeys, readAs, type CallerKeys } from '../tenant-scope';
import { GraphqlTypes } from './types-from-zod';

interface RootField<Args extends z.ZodType> {
  /** The REST route whose scope and read this field shares. */
  route: keyof typeof ROUTE_SCOPES;
  args: Args | null;
  type: string;
  read: (tx: Statements, args: z.infer<Args>, context: ReadContext) => Promise<unknown>;
}

/** What a field's read knows of its request beyond the tenant its statements run as. */
interface ReadContext {
  now: Date;
  keys: CallerKeys;
}

const field = <Args extends z.ZodType>(definition: RootField<Args>) => definition;

/** Each root field: the REST route it mirrors (scope and read function), its arguments' contract and its type (nullable, so one refused field leaves the others' data). */
const ROOT_FIELDS = {
  calls: field({ route: 'GET /calls', args: CallListQuerySchema, type: 'CallPage', read: (tx, args) => readCallPage(tx, args) }),
  call: field({ route: 'GET /calls/:id', args: CallParamsSchema, type: 'CallDetail', read: (tx, args, { keys }) => readCallDetail(tx, args.id, keys) }),
  outcomes: field({ route: 'GET /outcomes', args: OutcomeListQuerySchema, type: 'OutcomePage', read: (tx, args) => readOutcomePage(tx, args) }),
  realtime: field({ route: 'GET /realtime', args: null, type: 'LiveSnapshot', read: async (tx, _args, { now }) => (await readLiveSnapshot(tx, now)).live }),
  metrics: field({ route: 'GET /metrics', args: MetricQuerySchema, type: 'MetricSeries', read: (tx, args, { now }) => readMetric(tx, args, now) }),
  incidents: field({ route: 'GET /incidents', args: IncidentListQuerySchema, type: 'IncidentPage', read: (tx, args) => readIncidentPage(tx, args) }),
  alerts: field({ route: 'GET /alerts', args: AlertListQuerySchema, type: 'AlertPage', read: (tx, args) => readAlertPage(tx, args) }),
};

/** Every scope some root field needs: a key holding any of them may call /graphql, and each field checks its own. */
export const GRAPHQL_SCOPES = [...new Set(Object.values(ROOT_FIELDS).map((f) => ROUTE_SCOPES[f.route]))];

/** The SDL: the resources' types from their zod contracts, the root fields from the table above. */
export function graphqlSchema(): string {
  const types = new GraphqlTypes();
  types.object('CallPage', CallListPageSchema, { 'CallPage.items[]': 'Call', 'CallPage.items[].latency': 'Latency' });
  types.object('CallDetail', CallDetailSchema.shape.call, { 'CallDetail.latency': 'Latency' });
  types.object('OutcomePage', OutcomeListSchema, { 'OutcomePage.items[]': 'Outcome' });
  types.object('LiveSnapshot', LiveSnapshotSchema.shape.live);
  types.object('MetricSeries', MetricSeriesSchema);
  types.object('IncidentPage', IncidentListSchema, { 'IncidentPage.items[]': 'Incident' });
  types.object('AlertPage', AlertListSchema, { 'AlertPage.items[]': 'Alert' });
  const query = Object.entries(ROOT_FIELDS).map(([name, f]) => {
    const args = f.args ? GraphqlTypes.arguments(f.args) : '';
    return `  ${name}${args ? `(${args})` : ''}: ${f.type}`;
  });
  return ['scalar JSON', types.sdl(), `type Query {\n${query.join('\n')}\n}`].join('\n\n');
}

/** Explicit nulls mean "not given", as an absent query parameter does on the REST route. */
const given = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));

/** Resolvers over the query service's own read functions, in the caller's tenant transaction, each behind its REST route's scope. */
export function graphqlResolvers(reads: TenantReads, now: () => Date, dataKeys: DataKeys) {
  const Query = Object.fromEntries(
    Object.entries(ROOT_FIELDS).map(([name, f]) => [
      name,
      async (_root: unknown, args: Record<string, unknown>, context: { reply: { request: FastifyRequest } }) => {
        const request = context.reply.request;
        const scope = ROUTE_SCOPES[f.route];
        if (!request.caller?.scopes.includes(scope)) throw new ApiError('FORBIDDEN', `the API key lacks the ${scope} scope (needed for ${name})`);
        const parsed = f.args ? f.args.safeParse(given(args)) : { success: true as const, data: undefined };
        if (!parsed.success) throw validationError(parsed.error, `the arguments of ${name}`);
        const read = f.read as (tx: Statements, args: unknown, context: ReadContext) => Promise<unknown>;
        return readAs(reads, request, (tx) => read(tx, parsed.data, { now: now(), keys: callerKeys(dataKeys, request) }));
      },
    ]),
  );
  const JSON = new GraphQLScalarType({
    name: 'JSON',
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: (ast) => valueFromASTUntyped(ast),
  });
  return { Query, JSON };
}
