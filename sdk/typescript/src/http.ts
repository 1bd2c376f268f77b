import { parseRetryAfter, retryDelayMs, sleep } from './backoff.js';
import { ApiError, ConnectionError, errorFromResponse, TimeoutError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { VERSION } from './version.js';

/** Per-request settings every method takes as its last argument. */
export interface RequestOptions {
  /** The write's Idempotency-Key; by default one is generated and kept across the write's retries. */
  idempotencyKey?: string;
  /** Cancels the request, retries included. */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the base URL, e.g. `/calls`. */
  path: string;
  query?: Query | undefined;
  /** A JSON body, serialized once so every attempt sends the same bytes. */
  body?: unknown;
  /** Headers made for each attempt (a signature over a fresh timestamp). */
  signedHeaders?: (body: string) => Promise<Record<string, string>>;
  /** The path is from the service root rather than the base URL. */
  root?: boolean;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether an answer is worth another attempt: 408, 409 while the key is in flight, 429 and 5xx. */
function isRetryable(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (!(error instanceof ApiError)) return false;
  if (error.status === 409) return error.code === 'IDEMPOTENCY_CONFLICT';
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function urlOf(options: ResolvedOptions, request: HttpRequest): string {
  const base = request.root ? options.baseUrl.replace(/\/api\/v1$/, '') : options.baseUrl;
  const url = new URL(base + request.path);
  for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  return url.toString();
}

async function parse(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The one way every resource reaches the API: auth, JSON, timeouts, typed errors and retries with one Idempotency-Key. */
export class Transport {
  constructor(readonly options: ResolvedOptions) {}

  async request<T>(request: HttpRequest, perRequest: RequestOptions = {}): Promise<T> {
    const maxRetries = perRequest.maxRetries ?? this.options.maxRetries;
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const idempotencyKey = WRITES.has(request.method) ? (perRequest.idempotencyKey ?? newIdempotencyKey()) : undefined;
    for (let retry = 0; ; retry++) {
      try {
        return (await this.attempt(request, body, idempotencyKey, perRequest)) as T;
      } catch (error) {
        if (retry >= maxRetries || !isRetryable(error) || perRequest.signal?.aborted) throw error;
        const retryAfter = error instanceof ApiError ? parseRetryAfter(error.headers.get('retry-after')) : undefined;
        await sleep(retryDelayMs(retry + 1, retryAfter));
      }
    }
  }

  private async attempt(request: HttpRequest, body: string | undefined, idempotencyKey: string | undefined, perRequest: RequestOptions): Promise<unknown> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.options.apiKey}`,
      'x-earshot-sdk': `typescript/${VERSION}`,
      ...this.options.defaultHeaders,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      ...(request.signedHeaders ? await request.signedHeaders(body ?? '') : {}),
      ...perRequest.headers,
    };
    const timeoutMs = perRequest.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const cancel = () => controller.abort();
    perRequest.signal?.addEventListener('abort', cancel, { once: true });
    const url = urlOf(this.options, request);
    try {
      let response: Response;
      let answer: unknown;
      try {
        response = await this.options.fetch(url, { method: request.method, headers, body: body ?? null, signal: controller.signal });
        answer = await parse(response);
      } catch (error) {
        if (perRequest.signal?.aborted) throw error;
        if (controller.signal.aborted) throw new TimeoutError(`${request.method} ${url} took longer than ${timeoutMs} ms`, { cause: error });
        throw new ConnectionError(`${request.method} ${url} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      if (!response.ok) throw errorFromResponse(response.status, answer, response.headers);
      return answer;
    } finally {
      clearTimeout(timer);
      perRequest.signal?.removeEventListener('abort', cancel);
    }
  }
}
