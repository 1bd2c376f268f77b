import type { FastifyRequest } from 'fastify';
import type { DataKeys } from '@earshot/auth';
import type { Statements, TenantReads } from '@earshot/db';
import type { KeyLookup } from '@earshot/events';

/** The tenant of an authenticated request (the auth hook has run for every route that calls this). */
function tenantOf(request: FastifyRequest): string {
  if (!request.caller) throw new Error(`${request.method} ${request.url} reached its handler without a caller: its route declares no API-key policy`);
  return request.caller.tenant.id;
}

/**
 * Runs a request's reads as the tenant role with the caller's tenant set:
 * row-level security, not a WHERE clause, keeps other tenants' rows out.
 * Each statement is a transaction of one round trip (TenantReads); several
 * statements see what a READ COMMITTED transaction would, each its own
 * snapshot.
 */
export function readAs<T>(reads: TenantReads, request: FastifyRequest, work: (tx: Statements) => Promise<T>): Promise<T> {
  return work(reads.as(tenantOf(request)));
}

/** The caller's data keys by id, for opening what the read models keep sealed. */
export type CallerKeys = (keyIds: readonly string[]) => Promise<KeyLookup>;

/** DataKeys.lookup with the caller's tenant: no other tenant's key ever opens for a request. */
export function callerKeys(dataKeys: DataKeys, request: FastifyRequest): CallerKeys {
  const tenantId = tenantOf(request);
  return (keyIds) => dataKeys.lookup(keyIds, tenantId);
}
