import { sql, type SQLQuery } from '@earshot/db';

/**
 * A timestamptz as the API writes times, in Postgres: what JavaScript's
 * toISOString gives (UTC, milliseconds, `Z`), null for null. Statements that
 * render JSON themselves use it, so their times read like every other route's.
 */
export function isoTime(column: SQLQuery): SQLQuery {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
