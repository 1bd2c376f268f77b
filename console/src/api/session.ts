/**
 * Who is signed in: the API key (kept in session storage, so it goes when the tab does)
 * and what its scopes let the console show.
 */
import { ApiFailure, createApi, type Api } from './client';
import type { Scope } from './types';

const STORAGE = 'earshot.console.key';

export interface Session {
  api: Api;
  /** The key's record, when the key may read keys. */
  name: string | null;
  prefix: string;
  /** The scopes known to be held; `null` scopes are unknown and treated as held until the API refuses. */
  scopes: ReadonlySet<Scope> | null;
  /** Read scopes found missing by probing, when the scopes could not be read. */
  refused: ReadonlySet<Scope>;
}

export const storedKey = (): string | null => sessionStorage.getItem(STORAGE);
export const forgetKey = (): void => sessionStorage.removeItem(STORAGE);

export function can(session: Session, scope: Scope): boolean {
  return session.scopes ? session.scopes.has(scope) : !session.refused.has(scope);
}

/** A cheap read per scope, for a key that may not list keys: a 403 means the scope is missing. */
const PROBES: [Scope, (api: Api) => Promise<unknown>][] = [
  ['calls:read', (api) => api.calls({ limit: 1 })],
  ['metrics:read', (api) => api.realtime()],
  ['incidents:read', (api) => api.incidents()],
  ['alerts:read', (api) => api.alerts()],
  ['deployments:read', (api) => api.deployments()],
  ['usage:read', (api) => api.usage()],
  ['billing:read', (api) => api.invoices()],
];

const refusedBy = (error: unknown) => error instanceof ApiFailure && error.status === 403;

/** Checks the key with the API and learns its scopes; throws ApiFailure (401) for a bad, expired or revoked key. */
export async function signIn(key: string): Promise<Session> {
  const api = createApi(key.trim());
  const prefix = key.trim().slice(0, 15);
  try {
    const keys = await api.keys();
    const own = keys.find((k) => key.trim().startsWith(k.prefix));
    sessionStorage.setItem(STORAGE, api.key);
    return { api, name: own?.name ?? null, prefix: own?.prefix ?? prefix, scopes: own ? new Set(own.scopes) : null, refused: new Set() };
  } catch (error) {
    if (!refusedBy(error)) throw error;
  }
  const results = await Promise.allSettled(PROBES.map(([, probe]) => probe(api)));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !refusedBy(r.reason));
  if (failure) throw failure.reason;
  const refused = new Set(PROBES.filter((_, i) => results[i]?.status === 'rejected').map(([scope]) => scope));
  sessionStorage.setItem(STORAGE, api.key);
  return { api, name: null, prefix, scopes: null, refused: new Set([...refused, 'keys:read' as const]) };
}
