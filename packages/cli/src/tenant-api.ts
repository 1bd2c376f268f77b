import type { z } from 'zod';
import { loadConfig } from '@earshot/config';
import { readDemoCredentials } from './demo/demo-credentials';
import { localOrigin } from './local-instance';

/** Where the tenant's commands send their requests, and the key they send. */
export interface TenantApiOptions {
  url?: string;
  key?: string;
}

export interface TenantApi {
  base: string;
  /** The answer, checked against the route's response contract. */
  request<S extends z.ZodType>(answer: S, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<z.output<S>>;
}

/**
 * The tenant's side of the HTTP API for the CLI: the key from --key, else
 * EARSHOT_API_KEY, else the demonstration key an embedded start keeps in
 * the data directory. Any answer but 2xx fails with the server's Error.
 */
export function tenantApi(options: TenantApiOptions): TenantApi {
  const config = loadConfig();
  const key = options.key ?? config.EARSHOT_API_KEY ?? readDemoCredentials(config.EARSHOT_DATA_DIR)?.apiKey;
  if (!key) throw new Error('no API key: pass --key, or set EARSHOT_API_KEY (a key with the keys:read or keys:write scope)');
  const base = options.url ?? localOrigin(config);
  return {
    base,
    async request<S extends z.ZodType>(answer: S, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<z.output<S>> {
      const response = await fetch(new URL(`/api/v1${path}`, base), {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) {
        const error = safeJson(text);
        throw new Error(`${base} answered ${response.status}${error ? ` ${error.code}: ${error.error}` : `: ${text}`}`);
      }
      return answer.parse(JSON.parse(text));
    },
  };
}

function safeJson(text: string): { code: string; error: string } | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && 'code' in value && 'error' in value) return { code: String(value.code), error: String(value.error) };
  } catch {
    // Not JSON: the raw text is shown instead.
  }
  return undefined;
}
