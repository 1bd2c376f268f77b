import { z } from 'zod';
import { storedId, storedText } from '../text';
import { cursorPattern, type CursorKinds } from './cursor';

/** The most items one page may hold, on every list route. */
export const MAX_PAGE_LIMIT = 200;

/**
 * Free text that is more than spaces, kept as sent: a trim would turn a
 * string the document accepts (e.g. "\r") into an empty one.
 */
export const freeText = (max: number) => storedText(max).regex(/[^\t\n\v\f\r ]/, 'not only spaces');

/**
 * A date-time a client sends, with any offset, read as UTC. Years 0002 to
 * 9998 only: PostgreSQL stores neither year 0 nor year 10000, which an
 * offset could otherwise reach from year 0001 or 9999.
 */
export const queryTime = z.iso
  .datetime({ offset: true })
  .regex(/^(?!000[01]|9999)/, 'a year from 0002 to 9998')
  .transform((value) => new Date(value).toISOString());

/**
 * The one pagination scheme of every list route: a keyset `cursor` (the
 * previous page's `nextCursor`), `page` numbers, or both (page numbers
 * counted from the cursor); `limit` items a page (at most 200). `cursor`
 * says what the route's cursors hold.
 */
export function pagingQuery(defaultLimit: number, cursor: CursorKinds) {
  return z.object({
    cursor: z
      .string()
      .regex(cursorPattern(cursor), 'a nextCursor this list gave')
      .optional()
      .describe('nextCursor of the previous page: the page after that position'),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(defaultLimit).describe(`items per page, 1 to ${MAX_PAGE_LIMIT}`),
    page: z.coerce.number().int().min(1).max(1_000_000).optional().describe('page number (from 1), counted from the cursor when one is given'),
  });
}

/** The one list shape: `nextCursor` is null on the last page; `page`/`nextPage` answer page-numbered requests. */
export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    ok: z.literal(true),
    items: z.array(item),
    nextCursor: z.string().nullable(),
    page: z.number().int().optional(),
    nextPage: z.number().int().nullable().optional(),
  });
}

/** What every write answers once the log holds it. */
export const AcceptedWriteSchema = z.object({ ok: z.literal(true), id: z.string() });
export type AcceptedWrite = z.infer<typeof AcceptedWriteSchema>;

/** The Idempotency-Key header every POST takes. */
export const IdempotencyHeadersSchema = z.object({ 'idempotency-key': storedId.optional() });
