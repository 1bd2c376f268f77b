/** How a client is configured: from its options, else from the environment, else the defaults. */
export interface ClientOptions {
  /** An API key, `ear_live_…` or `ear_test_…`. Default: EARSHOT_API_KEY. */
  apiKey?: string;
  /** The API's base URL, ending in /api/v1; the service root alone means the same. Default: EARSHOT_BASE_URL, else http://127.0.0.1:8080/api/v1. */
  baseUrl?: string;
  /** The tenant's webhook secret (`whsec_…`), which signs ingest requests. Default: EARSHOT_WEBHOOK_SECRET. */
  webhookSecret?: string;
  /** Bounds each attempt of a request. Default 60,000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** The fetch to use (a test double, a proxy agent). Default: the global fetch. */
  fetch?: typeof fetch;
  /** Headers added to every request. */
  defaultHeaders?: Record<string, string>;
}

export interface ResolvedOptions {
  apiKey: string;
  baseUrl: string;
  webhookSecret: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  fetch: typeof fetch;
  defaultHeaders: Record<string, string>;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080/api/v1';
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;

/** An environment variable where there is an environment (Node, Deno, Bun); browsers have none. */
function fromEnvironment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The base URL as the client uses it: ending in /api/v1, without a trailing
 * slash. The service root (`http://host:8080`) means the same as
 * `http://host:8080/api/v1`.
 */
export function normalizeBaseUrl(input: string): string {
  const url = new URL(input.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the Earshot base URL must be http or https: ${input}`);
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/api/v1') ? path : `${path}/api/v1`;
  return url.toString().replace(/\/+$/, '');
}

export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const apiKey = options.apiKey ?? fromEnvironment('EARSHOT_API_KEY');
  if (!apiKey) throw new Error('Earshot needs an API key: pass { apiKey } or set EARSHOT_API_KEY');
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new Error(`maxRetries must be a whole number of at least 0, not ${maxRetries}`);
  if (!(timeoutMs > 0)) throw new Error(`timeoutMs must be positive, not ${timeoutMs}`);
  return {
    apiKey,
    baseUrl: normalizeBaseUrl(options.baseUrl ?? fromEnvironment('EARSHOT_BASE_URL') ?? DEFAULT_BASE_URL),
    webhookSecret: options.webhookSecret ?? fromEnvironment('EARSHOT_WEBHOOK_SECRET'),
    timeoutMs,
    maxRetries,
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    defaultHeaders: options.defaultHeaders ?? {},
  };
}
