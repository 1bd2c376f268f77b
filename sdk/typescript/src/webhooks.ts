import { WebhookVerificationError } from './errors.js';
import { hmacBase64 } from './signing.js';

/** Headers as fetch, Node's `IncomingMessage.headers` or a plain object give them. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** The signing secret, `whsec_<base64>`. Default: the client's webhook secret. */
  secret?: string;
  /** How far the timestamp may be from now. Default 300 s. */
  toleranceSeconds?: number;
  /** Now, in milliseconds (for tests). */
  now?: number;
}

export interface SignOptions {
  secret?: string;
  /** The message id (`webhook-id`). Default: a random one. */
  id?: string;
  /** Unix seconds. Default: now. */
  timestamp?: number;
}

/** The Standard Webhooks headers of a signed message. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const SECRET_PREFIX = 'whsec_';

function keyOf(secret: string): Uint8Array {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const standard = encoded.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return Uint8Array.from(atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  } catch {
    throw new WebhookVerificationError('the webhook secret is not `whsec_` followed by base64');
  }
}

function headerOf(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/** Compares in time independent of where the strings differ. */
function equalInConstantTime(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return difference === 0;
}

const textOf = (body: string | Uint8Array): string => (typeof body === 'string' ? body : new TextDecoder().decode(body));

/**
 * `earshot.webhooks`: checks and makes Standard Webhooks signatures
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), as
 * Earshot's alert notifications carry them.
 */
export class Webhooks {
  constructor(private readonly defaultSecret: string | undefined) {}

  /**
   * Verifies a notification's raw body against its headers and answers the
   * parsed notification; throws WebhookVerificationError when the signature,
   * the timestamp or the body does not hold up. Pass the body exactly as
   * received, before any JSON parsing.
   */
  async verify<T = unknown>(rawBody: string | Uint8Array, headers: HeaderSource, options: VerifyOptions = {}): Promise<T> {
    const id = headerOf(headers, 'webhook-id');
    const timestamp = headerOf(headers, 'webhook-timestamp');
    const signatures = headerOf(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
    const seconds = Number(timestamp);
    if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
    const tolerance = options.toleranceSeconds ?? 300;
    const now = Math.floor((options.now ?? Date.now()) / 1_000);
    if (Math.abs(now - seconds) > tolerance) throw new WebhookVerificationError(`the message's timestamp is more than ${tolerance} s from now`);
    const body = textOf(rawBody);
    const expected = await hmacBase64(keyOf(this.secretOf(options.secret)), `${id}.${timestamp}.${body}`);
    const matches = signatures.split(' ').some((entry) => {
      const [version, signature] = entry.split(',', 2);
      return version === 'v1' && signature !== undefined && equalInConstantTime(signature, expected);
    });
    if (!matches) throw new WebhookVerificationError('no signature matches the body');
    try {
      return JSON.parse(body) as T;
    } catch {
      throw new WebhookVerificationError('the body is not JSON');
    }
  }

  /** The headers that sign `body`, for tests of a receiver. */
  async sign(body: string | Uint8Array, options: SignOptions = {}): Promise<WebhookHeaders> {
    const id = options.id ?? `msg_${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1_000));
    const signature = await hmacBase64(keyOf(this.secretOf(options.secret)), `${id}.${timestamp}.${textOf(body)}`);
    return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
  }

  private secretOf(secret: string | undefined): string {
    const chosen = secret ?? this.defaultSecret;
    if (!chosen) throw new WebhookVerificationError('no webhook secret: pass { secret } or set EARSHOT_WEBHOOK_SECRET');
    return chosen;
  }
}
