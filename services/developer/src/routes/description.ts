import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { apiDescription } from '../openapi/api-description';
import { postmanCollection } from '../openapi/postman-collection';
import { explorerTheme } from './explorer-theme';

export const EXPLORER_PATH = '/developers/explorer';

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The description as served: with the caller's own origin as its server, so "try it" and generated clients call back where they came from. */
function servedDescription(app: FastifyInstance, request: FastifyRequest): OpenAPIV3_1.Document {
  return { ...apiDescription(app), servers: [{ url: originOf(request), description: 'this Earshot' }] };
}

/** GET /openapi.json, GET /postman and the explorer, all public and all from the one description. */
export async function registerDescriptionRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => servedDescription(app, request));

  app.get('/postman', { schema: { hide: true } }, async (request, reply) => {
    const collection = postmanCollection(servedDescription(app, request), originOf(request));
    return reply.header('content-disposition', 'attachment; filename="earshot.postman_collection.json"').send(collection);
  });

  // Swagger UI from its own package's files and Earshot's theme: the page makes no request beyond this server.
  await app.register(fastifySwaggerUi, {
    routePrefix: EXPLORER_PATH,
    ...explorerTheme(),
    // Operations listed under their tags, in the document's order, with a box that filters tags.
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true, displayRequestDuration: true, validatorUrl: null, docExpansion: 'list', filter: true },
    transformSpecification: (_spec, request) => servedDescription(app, request),
    transformSpecificationClone: false,
  });
}
