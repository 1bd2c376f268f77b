import type { RoutePolicy } from '@earshot/server';

/** Managing keys and the webhook secret needs `keys:write`, provider connections `providers:write`; reading them, the `:read` scope. */
export function keysPolicy(scope: 'keys:read' | 'keys:write' | 'providers:read' | 'providers:write'): RoutePolicy {
  return { auth: 'apiKey', scope };
}

export const OPERATOR: RoutePolicy = { auth: 'admin' };
