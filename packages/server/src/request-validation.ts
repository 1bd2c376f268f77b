import type { FastifySchemaValidationError } from 'fastify/types/schema';
import { ApiError } from '@earshot/contracts';

const PLACES: Record<string, string> = { querystring: 'query', body: 'body', params: 'path', headers: 'headers' };

/** A request that fails its route's zod schema: VALIDATION_ERROR naming each field and where it was (the schema error formatter of every zod-typed service). */
export function validationFailure(errors: FastifySchemaValidationError[], dataVar: string): ApiError {
  const place = PLACES[dataVar] ?? dataVar;
  const fields = errors.map((e) => ({ path: `${place}${e.instancePath.replaceAll('/', '.')}`.replace(/\.$/, ''), message: e.message ?? 'invalid' }));
  return new ApiError('VALIDATION_ERROR', `the ${place} is invalid: ${fields.map((f) => f.path).join(', ')}`, { fields });
}
