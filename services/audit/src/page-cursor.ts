import { z } from 'zod';
import { ApiError } from '@earshot/contracts';

/** Where a newest-first page ends: the last row's time and id (the id breaks ties). */
const CursorSchema = z.object({ t: z.iso.datetime(), id: z.string() });
export type PageCursor = z.infer<typeof CursorSchema>;

function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(text: string | undefined): PageCursor | undefined {
  if (text === undefined) return undefined;
  try {
    return CursorSchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'cursor is not one this API gave out', { fields: [{ path: 'cursor', message: 'unknown cursor' }] });
  }
}

/** The page and the cursor of the next one, from `limit + 1` rows. */
export function pageOf<Row, Item>(
  rows: readonly Row[],
  limit: number,
  cursorOf: (row: Row) => PageCursor,
  itemOf: (row: Row) => Item,
): { items: Item[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(itemOf), nextCursor: rows.length > limit && last ? encodeCursor(cursorOf(last)) : null };
}
