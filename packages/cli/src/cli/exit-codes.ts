/**
 * What `earshot` exits with. Auth and rate limiting take the sysexits.h
 * numbers (EX_NOPERM, EX_TEMPFAIL) so a script can tell "fix the key" from
 * "wait and retry" without reading the message.
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  rateLimited: 75,
  auth: 77,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes: ${EXIT.ok} success, ${EXIT.failure} failure, ${EXIT.usage} usage error, ${EXIT.auth} authentication or permission refused, ${EXIT.rateLimited} rate limited (retry later).`;

/** A mistake in how the command was called: exits 2, like commander's own. */
export class UsageError extends Error {
  override name = 'UsageError';
}
