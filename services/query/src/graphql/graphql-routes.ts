import type { FastifyInstance } from 'fastify';
import { buildSchema, printSchema } from 'graphql';
import mercurius from 'mercurius';
import { ApiError } from '@earshot/contracts';
import type { DataKeys } from '@earshot/auth';
import type { TenantReads } from '@earshot/db';
import type { RoutePolicy } from '@earshot/server';
import { costLimit } from './query-cost';
import { depthLimit } from './query-depth';
import { GRAPHQL_SCOPES, graphqlResolvers, graphqlSchema } from './graphql-schema';

/** A query refused before it ran names each reason (unknown field, depth, cost) as a VALIDATION_ERROR; other errors pass unchanged. */
function refusedQuery(error: Error & { errors?: readonly { message: string }[] }): Error {
  if (error instanceof ApiError || !error.errors?.length) return error;
  const reasons = error.errors.map((e) => e.message);
  return new ApiError('VALIDATION_ERROR', `the query is invalid: ${reasons.join('; ')}`, { fields: reasons.map((message) => ({ path: 'query', message })) });
}

const GRAPHQL_PATH = '/graphql';
export const MAX_QUERY_DEPTH = 6;
/** Deep enough for the standard introspection query (graphql-js's getIntrospectionQuery, which clients and IDEs send); no deeper. */
export const MAX_INTROSPECTION_DEPTH = 16;
export const SDL_PATH = `${GRAPHQL_PATH}/schema.graphql`;
export const MAX_QUERY_COST = 10_000;

/**
 * POST/GET /graphql on an app scope whose auth and rate-limit hooks are
 * already registered: the route takes any key holding one of the fields'
 * scopes and counts against the same per-key limit as REST; each field then
 * checks its own scope. Malformed, too deep or too costly queries are 400s
 * in the Error shape, before any read.
 */
export async function registerGraphqlRoutes(app: FastifyInstance, reads: TenantReads, now: () => Date, dataKeys: DataKeys): Promise<void> {
  const policy: RoutePolicy = { auth: 'apiKey', scope: GRAPHQL_SCOPES };
  app.addHook('onRoute', (route) => {
    if (route.url === GRAPHQL_PATH) route.config = { ...route.config, policy };
  });
  await app.register(mercurius, {
    schema: graphqlSchema(),
    resolvers: graphqlResolvers(reads, now, dataKeys),
    path: GRAPHQL_PATH,
    graphiql: false,
    validationRules: [depthLimit(MAX_QUERY_DEPTH, MAX_INTROSPECTION_DEPTH), costLimit(MAX_QUERY_COST)],
    // Errors before execution (auth, syntax, depth, cost) go on to the app's one error handler, as on every route.
    errorHandler: (error) => {
      throw refusedQuery(error);
    },
    errorFormatter: (execution, context) => {
      const formatted = mercurius.defaultErrorFormatter(execution, context);
      const errors = execution.errors.map((error, index) => {
        const original = error.originalError;
        const code = original instanceof ApiError ? original.code : 'INTERNAL';
        const message = original instanceof ApiError ? original.message : code === 'INTERNAL' ? 'internal error' : error.message;
        return {
          ...formatted.response.errors?.[index],
          message,
          extensions: { code, ...(original instanceof ApiError && original.detail.fields ? { fields: original.detail.fields } : {}) },
        };
      });
      return { statusCode: 200, response: { ...formatted.response, errors } };
    },
  });
  // The schema as SDL, public like /openapi.json: a description of the API, not data; codegen tools and IDEs read it.
  // Printed from the SDL mercurius is given, not its schema object: mercurius may load another copy of graphql-js.
  const sdl = printSchema(buildSchema(graphqlSchema()));
  app.get(SDL_PATH, { schema: { hide: true }, config: { policy: { auth: 'public' } } }, async (_request, reply) =>
    reply.type('application/graphql; charset=utf-8').send(sdl),
  );
}
