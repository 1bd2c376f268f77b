import type { FastifyRequest } from 'fastify';
import { inTenant, type ConnectionPool, type Queryable } from '@earshot/db';

/** The tenant of an authenticated request (the auth hook has run for every route that calls this). */
export function tenantOf(request: FastifyRequest): string {
  if (!request.caller) throw new Error(`${request.method} ${request.url} reached its handler without a caller: its route declares no API-key policy`);
  return request.caller.tenant.id;
}

/**
 * Runs a request's reads in one transaction as the tenant role with the
 * caller's tenant set: row-level security, not a WHERE clause, keeps other
 * tenants' rows out.
 */
export function readAs<T>(db: ConnectionPool, request: FastifyRequest, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return inTenant(db, tenantOf(request), work);
}
