import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares digests, so neither the length nor the content of a token leaks through timing. */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
