/**
 * The official TypeScript SDK for Earshot, observability for voice AI agents.
 * `new Earshot()` reads EARSHOT_API_KEY, EARSHOT_BASE_URL and EARSHOT_WEBHOOK_SECRET.
 */
export { Earshot, Stream } from './client.js';
export type { ClientOptions } from './options.js';
export { normalizeBaseUrl, DEFAULT_BASE_URL } from './options.js';
export type { RequestOptions } from './http.js';
export type { AlertWebhookSettings } from './resources/alerts.js';
export { Page, PagedList } from './pagination.js';
export { Ingest, MAX_BATCH_EVENTS, type IngestEvent, type IngestResult, type IngestSummary, type SendOptions } from './ingest.js';
export { IngestBatcher, BatchError, type BatcherOptions, type BatcherTotals } from './batcher.js';
export { EventStream, type StreamEvent, type StreamFilters, type StoredEvent, type WebSocketClass } from './stream.js';
export { Webhooks, type HeaderSource, type SignOptions, type VerifyOptions, type WebhookHeaders } from './webhooks.js';
export { signIngest } from './signing.js';
export { retryDelayMs } from './backoff.js';
export {
  EarshotError,
  ApiError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ValidationError,
  IdempotencyConflictError,
  RateLimitError,
  ProviderError,
  UnavailableError,
  ConnectionError,
  TimeoutError,
  WebhookVerificationError,
  type ErrorCode,
  type FieldIssue,
} from './errors.js';
export type * from './models.js';
export type { JsonValue, paths } from './generated/openapi.js';
export { VERSION } from './version.js';
