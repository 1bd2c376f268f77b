import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '@earshot/config';
import { validationFailure } from './request-validation';
import { responseSerializer } from './response-serializer';

/**
 * Holds a plugin scope's routes to their zod contracts: requests validated
 * (a failure answered as VALIDATION_ERROR naming each field), responses
 * serialized, and checked against their schemas outside production.
 */
export function useZodContracts(api: FastifyInstance, config: Pick<Config, 'NODE_ENV'>): void {
  api.setValidatorCompiler(validatorCompiler);
  api.setSerializerCompiler(responseSerializer(config.NODE_ENV !== 'production'));
  api.setSchemaErrorFormatter(validationFailure);
}
