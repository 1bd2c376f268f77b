import type { Scope } from '@earshot/auth';
import type { RoutePolicy } from '@earshot/server';

/**
 * The one table of which scope each query route needs (the spec leaves it
 * open). Reads of a resource need its `:read` scope, the tenant's writes
 * its `:write` scope; `/health` needs no key at all.
 */
export const ROUTE_SCOPES = {
  'GET /realtime': 'metrics:read',
  'GET /metrics': 'metrics:read',
  'GET /metrics/catalogue': 'metrics:read',
  'GET /agents': 'calls:read',
  'GET /calls': 'calls:read',
  'GET /calls/:id': 'calls:read',
  'DELETE /calls/:id': 'calls:write',
  'GET /outcomes': 'outcomes:read',
  'POST /outcomes': 'outcomes:write',
  'GET /incidents': 'incidents:read',
  'POST /incidents': 'incidents:write',
  'PATCH /incidents/:id': 'incidents:write',
  'GET /alerts': 'alerts:read',
  'GET /alerts/rules': 'alerts:read',
  'POST /alerts/rules': 'alerts:write',
  'PATCH /alerts/rules/:id': 'alerts:write',
  'DELETE /alerts/rules/:id': 'alerts:write',
  'GET /deployments': 'deployments:read',
  'GET /deployments/:id': 'deployments:read',
  'POST /deployments': 'deployments:write',
  'GET /deployments/:id/impact': 'deployments:read',
  'GET /usage': 'usage:read',
  'GET /billing/invoices': 'billing:read',
  'GET /audit': 'audit:read',
} as const satisfies Record<string, Scope>;

export type QueryRoute = keyof typeof ROUTE_SCOPES;

/** A route's policy: its scope from the table (the platform adds the per-key request limit every API route shares). */
export function policyOf(route: QueryRoute): RoutePolicy {
  return { auth: 'apiKey', scope: ROUTE_SCOPES[route] };
}
