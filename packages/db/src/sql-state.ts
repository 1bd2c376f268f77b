/**
 * The SQLSTATE PostgreSQL answered a failed statement with (`40P01`), or
 * undefined for a failure that is not PostgreSQL's answer (a lost connection,
 * `ECONNRESET`).
 */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error) || typeof error.code !== 'string') return undefined;
  return /^[0-9A-Z]{5}$/.test(error.code) ? error.code : undefined;
}

/**
 * SQLSTATE classes of a statement refused for a value it carried: 22 (data
 * exception: a NUL, an invalid byte sequence, a number out of range), 23
 * (integrity constraint) and 54 (program limit: an index row too large).
 * One member of a shared statement may have brought such a value; a
 * connection that failed, a shutdown or a timeout is every member's.
 */
const VALUE_CLASSES = new Set(['22', '23', '54']);

/** Whether PostgreSQL refused a statement for a value in it, rather than being unavailable. */
export function refusedValue(error: unknown): boolean {
  return VALUE_CLASSES.has(sqlState(error)?.slice(0, 2) ?? '');
}
