import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Compares a presented signature with the expected one in constant time (a length mismatch says nothing secret). */
export function sameSignature(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether any credential's expected signature matches; every credential is
 * computed and compared, so the time taken does not tell which one did.
 */
export function anyMatches<C>(credentials: readonly C[], matches: (credential: C) => boolean): boolean {
  let matched = false;
  for (const credential of credentials) if (matches(credential)) matched = true;
  return matched;
}

export function hmac(algorithm: 'sha1' | 'sha256' | 'sha512', key: string | Buffer, ...parts: (string | Buffer)[]): Buffer {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

export function sha256Hex(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Whether `at` (ms) lies within `toleranceMs` of now, either way. */
export function withinWindow(atMs: number, now: Date, toleranceMs: number): boolean {
  return Number.isFinite(atMs) && Math.abs(now.getTime() - atMs) <= toleranceMs;
}
