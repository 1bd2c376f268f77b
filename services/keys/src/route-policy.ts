import { ErrorBodySchema } from '@earshot/contracts';
import type { RoutePolicy } from '@earshot/server';

/** Managing keys and the webhook secret needs `keys:write`, provider connections `providers:write`; reading them, the `:read` scope. */
export function keysPolicy(scope: 'keys:read' | 'keys:write' | 'providers:read' | 'providers:write'): RoutePolicy {
  return { auth: 'apiKey', scope };
}

export const OPERATOR: RoutePolicy = { auth: 'admin' };

/** The statuses every authenticated route may answer besides its own; 503 when the key store is down. */
export const ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 429: ErrorBodySchema, 503: ErrorBodySchema } as const;
export const ERRORS_FOR_ONE = { ...ERRORS, 404: ErrorBodySchema } as const;
