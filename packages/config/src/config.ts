import ms, { type StringValue } from 'ms';
import { z } from 'zod';

const perMinute = (fallback: number) => z.coerce.number().int().positive().max(1_000_000_000).default(fallback);
const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(3_600_000).default(fallback);
/** A variable set but empty (a deploy file's placeholder) counts as unset. */
const unlessEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
const list = z.string().transform((s) =>
  s
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean),
);

/** A duration such as 90s, 15m, 2h or 7d, in milliseconds. */
const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const value = ms(text as StringValue);
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
      ctx.addIssue({ code: 'custom', message: 'must be a duration such as 90s, 15m, 2h or 7d' });
      return z.NEVER;
    });

const DAY_MS = 86_400_000;

/** How long something is kept: `forever`, or a duration such as 30d. */
const keepFor = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx): number | 'forever' => {
      if (text === 'forever') return 'forever';
      const value = ms(text as StringValue);
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
      ctx.addIssue({ code: 'custom', message: 'must be forever or a duration such as 30d' });
      return z.NEVER;
    });

/** Whole days kept, or `forever`: what read models keep is set and shown in days. */
const keepDays = (fallback: string) =>
  keepFor(fallback).transform((kept, ctx): number | 'forever' => {
    if (kept === 'forever') return kept;
    if (kept % DAY_MS === 0) return kept / DAY_MS;
    ctx.addIssue({ code: 'custom', message: 'must be forever or a number of days such as 30d' });
    return z.NEVER;
  });

/**
 * Everything Earshot reads from the environment, read once at boot. With no
 * KAFKA_BROKERS / DATABASE_URL the program runs embedded.
 */
export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
    /** Unset, `earshot serve` takes 8080, or the next free port up to 8089 when another instance holds it. */
    PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    /**
     * Where the gateway takes OTLP/gRPC exports (HTTP/2 cleartext; OTLP's conventional port is 4317). Unset, `earshot serve` takes
     * 4317, or the next free port up to 4326 but 4318 (OTLP/HTTP's); with PORT=0, any free port.
     */
    EARSHOT_OTLP_GRPC_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    KAFKA_BROKERS: list.pipe(z.array(z.string().regex(/^[^:\s]+:\d+$/, 'host:port expected')).min(1)).optional(),
    /**
     * The min.insync.replicas every topic of the log must have at least; startup refuses a topic below it. Unset: 2 on a cluster of
     * three brokers or more, 1 on a smaller one (packages/log/README.md).
     */
    EARSHOT_KAFKA_MIN_INSYNC_REPLICAS: z.coerce.number().int().min(1).max(32).optional(),
    /** Topic and consumer-group prefix, so several deployments (or test runs) can share a cluster. */
    EARSHOT_LOG_NAMESPACE: z
      .string()
      .regex(/^[a-zA-Z0-9._-]*$/)
      .default(''),
    DATABASE_URL: z.string().url().optional(),
    EARSHOT_DATA_DIR: z.string().default('.data'),
    /** Where the embedded PostgreSQL listens when DATABASE_URL is not set; unset, a free port is chosen and kept in the data directory. */
    EARSHOT_EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
    /** 32 bytes, base64: encrypts webhook secrets at rest. Required in production. */
    EARSHOT_MASTER_KEY: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
      .optional(),
    /**
     * Set only while the master key is rotated (deploy/README.md): the key EARSHOT_MASTER_KEY replaces. Processes open what either
     * key sealed and seal with the new one, so `earshot keys rotate-master` can re-wrap stored values while they serve.
     */
    EARSHOT_MASTER_KEY_PREVIOUS: unlessEmpty(z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')),
    EARSHOT_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Set, `GET /metrics` wants it as a bearer token (Prometheus's `authorization` setting); unset, it is open. */
    EARSHOT_METRICS_TOKEN: unlessEmpty(z.string().min(16, 'must be at least 16 characters')),
    /** Set, the process sends its traces there over OTLP/HTTP (OpenTelemetry's own variable, with the same meaning). */
    OTEL_EXPORTER_OTLP_ENDPOINT: unlessEmpty(z.url()),
    OTEL_SERVICE_NAME: unlessEmpty(z.string().min(1)),
    EARSHOT_INGEST_REQUESTS_PER_MIN: perMinute(120),
    EARSHOT_INGEST_EVENTS_PER_MIN: perMinute(5_000),
    EARSHOT_KEY_REQUESTS_PER_MIN: perMinute(600),
    EARSHOT_DEMO_API_KEY: z.string().optional(),
    EARSHOT_DEMO_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** Proxies (IPs or CIDRs) whose X-Forwarded-For is believed; anyone else's is ignored. */
    EARSHOT_TRUSTED_PROXIES: list.default([]),
    /** The key environments this deployment accepts: a staging deployment sets `staging` and refuses ear_live_ keys. */
    EARSHOT_KEY_ENVIRONMENTS: list.pipe(z.array(z.enum(['production', 'staging'])).min(1)).default(['production', 'staging']),
    /**
     * The origin providers reach Earshot at (https://earshot.example.com): connection webhook URLs
     * are made with it, and Twilio's signature covers it. Unset, the request's own scheme and host.
     */
    EARSHOT_PUBLIC_URL: unlessEmpty(
      z
        .string()
        .url()
        .regex(/^https?:\/\/[^/]+$/, 'scheme and host only, no path'),
    ),
    /** The API key the CLI's tenant commands (`earshot keys`, `earshot secret`) send. */
    EARSHOT_API_KEY: z.string().optional(),
    /** Time to receive a request's headers; slower is answered 408. */
    EARSHOT_HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
    /** Time to receive a whole request, body included; slower is answered 408. */
    EARSHOT_HTTP_REQUEST_TIMEOUT_MS: milliseconds(30_000),
    /** How long an idle kept-alive connection stays open; keep it above the load balancer's idle timeout. */
    EARSHOT_HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(65_000),
    /** Connections one process holds at once; more are closed as they arrive. */
    EARSHOT_HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1_024),
    /** How often a live-stream client gets a heartbeat. */
    EARSHOT_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
    /** Unsent bytes a live-stream client may hold before it is dropped as too slow. */
    EARSHOT_STREAM_BUFFER_BYTES: z.coerce
      .number()
      .int()
      .min(1_024)
      .default(1024 * 1024),
    /**
     * How long a background round's lease (alert evaluation, period closing, metric folding, retention, abandoning
     * silent calls) lasts without renewal: when its holder dies, another process takes the work over within this
     * and a third of it again.
     */
    EARSHOT_LEASE_TTL: duration('15s'),
    /** How often the holder of the alert lease evaluates every tenant's rules from the rollups: an alert fires at most this late. */
    EARSHOT_ALERT_INTERVAL: duration('30s'),
    /** How often the holder of the billing lease looks for ended periods and issues their invoices. */
    EARSHOT_BILLING_CLOSE_INTERVAL: duration('1m'),
    /** A call with no event for this long, and no end, is abandoned (a call.abandoned appended to the log); a tenant's setting may say otherwise. */
    EARSHOT_ABANDON_AFTER: duration('2h'),
    /**
     * What read models keep, in days or `forever`, where neither the tenant's settings nor its plan's say: calls with their turns,
     * transcripts and traces (by when they started), ingest deliveries, dead letters, audit entries. A daily job trims the rest.
     */
    EARSHOT_RETENTION_CALLS: keepDays('forever'),
    EARSHOT_RETENTION_DELIVERIES: keepDays('30d'),
    EARSHOT_RETENTION_DEAD_LETTERS: keepDays('30d'),
    EARSHOT_RETENTION_AUDIT: keepDays('400d'),
    /**
     * Retention of the log's topics, set when they are made and checked (and corrected) at every start. The events topic is the source
     * of truth: keep it for ever, since erasure destroys keys rather than records; deliveries and dead letters are copies of operations.
     */
    EARSHOT_TOPIC_RETENTION_EVENTS: keepFor('forever'),
    EARSHOT_TOPIC_RETENTION_DELIVERIES: keepFor('30d'),
    EARSHOT_TOPIC_RETENTION_DEAD_LETTERS: keepFor('30d'),
    /**
     * How long the projector remembers an applied event's key (to apply a repeat once): longer than the gateway keeps ingest keys
     * (72 h), since after that a resent event is appended again. Older keys below the committed position are trimmed daily.
     */
    EARSHOT_DEDUPE_WINDOW: duration('7d'),
    /**
     * Whether ingest and the tenant's writes through the API seal events' personal fields with per-call data keys (the tenant's for
     * events about no call), so deleting a tenant or erasing a call erases them from the log (the projector, a replay, the stream and an
     * export open them with the tenant's keys; what was said stays sealed in the read models, opened when the tenant reads a call).
     * `false` appends them in the clear.
     */
    EARSHOT_SEAL_EVENTS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    /** The least severe log entries written (pino's levels); `silent` writes none. */
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.EARSHOT_HTTP_HEADERS_TIMEOUT_MS > env.EARSHOT_HTTP_REQUEST_TIMEOUT_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['EARSHOT_HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not exceed EARSHOT_HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
      });
    if (env.NODE_ENV !== 'production') return;
    for (const name of ['EARSHOT_MASTER_KEY', 'EARSHOT_ADMIN_TOKEN', 'KAFKA_BROKERS', 'DATABASE_URL'] as const) {
      if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when NODE_ENV=production' });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(
    parsed.error.issues.map((issue) => issue.path.join('.')),
    `invalid configuration:\n  ${lines.join('\n  ')}`,
  );
}
