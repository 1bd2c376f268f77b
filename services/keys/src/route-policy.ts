import type { RoutePolicy } from '@earshot/server';

/** Managing keys and the webhook secret needs `keys:write`; reading the key records, `keys:read`. */
export function keysPolicy(scope: 'keys:read' | 'keys:write'): RoutePolicy {
  return { auth: 'apiKey', scope };
}

export const OPERATOR: RoutePolicy = { auth: 'admin' };
