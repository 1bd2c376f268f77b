/**
 * The one keyset cursor of every list route: `<value>~<id>`, the sort value
 * and the id of the last row shown. Its spelling is exact enough for the
 * document's pattern to say which cursors a route takes, and every string
 * the pattern allows is a position the route can page from: a value beyond
 * what any row can hold is clamped (no row lies past it), an id is
 * percent-encoded text, a UUID or a day number. It names no sort: under
 * another sort it is the same position read in that order.
 */

/** How a route's sort value is read: a time, an integer, a float, or not at all (the id alone orders the list). */
export type CursorValueKind = 'time' | 'integer' | 'float' | 'none';
/** How a route's row id is spelled. */
export type CursorIdKind = 'uuid' | 'day' | 'text';

export interface CursorKinds {
  value: CursorValueKind;
  id: CursorIdKind;
}

/** The last row shown: its sort value (an ISO time, a number, or null) and its id. */
export interface CursorPosition {
  v: string | number | null;
  id: string;
}

const NUMBER = '-?\\d{1,16}(?:\\.\\d{1,20})?(?:e[+-]?\\d{1,3})?';
const ID: Record<CursorIdKind, string> = {
  uuid: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
  day: '-?\\d{1,7}',
  // Percent-encoded UTF-8, never %00: PostgreSQL text holds no NUL.
  text: '(?:[A-Za-z0-9._~:-]|%(?:0[1-9A-F]|[1-9A-F][0-9A-F]))+',
};

/** The pattern of a route's cursors: a time is never null. */
export function cursorPattern(kinds: CursorKinds): RegExp {
  const value = kinds.value === 'time' ? NUMBER : `null|${NUMBER}`;
  return new RegExp(`^(?:${value})~(?:${ID[kinds.id]})$`);
}

// What PostgreSQL stores of a time, a day and a bigint; nothing lies beyond them.
const FIRST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');
const DAY_MS = 86_400_000;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

export function encodeCursor(position: CursorPosition, kinds: CursorKinds): string {
  return `${encodeValue(position.v, kinds.value)}~${encodeId(position.id, kinds.id)}`;
}

/** The position a cursor that matches `cursorPattern(kinds.id)` names. */
export function decodeCursor(cursor: string, kinds: CursorKinds): CursorPosition {
  const split = cursor.indexOf('~');
  return { v: decodeValue(cursor.slice(0, split), kinds.value), id: decodeId(cursor.slice(split + 1), kinds.id) };
}

function encodeValue(value: string | number | null, kind: CursorValueKind): string {
  if (value === null || kind === 'none') return 'null';
  return String(kind === 'time' ? Date.parse(String(value)) : value);
}

function decodeValue(text: string, kind: CursorValueKind): string | number | null {
  if (text === 'null' || kind === 'none') return null;
  const number = Number(text);
  if (kind === 'time') return new Date(clamp(Math.trunc(number), FIRST_MS, LAST_MS)).toISOString();
  if (kind === 'integer') return clamp(Math.round(number), Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  return number;
}

function encodeId(id: string, kind: CursorIdKind): string {
  if (kind === 'day') return String(Date.parse(`${id}T00:00:00Z`) / DAY_MS);
  if (kind === 'uuid') return id;
  return [...Buffer.from(id, 'utf8')]
    .map((byte) => (/[A-Za-z0-9._~:-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

function decodeId(text: string, kind: CursorIdKind): string {
  if (kind === 'day') return new Date(clamp(Number(text) * DAY_MS, FIRST_MS, LAST_MS)).toISOString().slice(0, 10);
  if (kind === 'uuid') return text;
  return Buffer.from(
    text.replace(/%([0-9A-F]{2})|([^%])/g, (_, hex: string | undefined, plain: string | undefined) =>
      hex ? String.fromCharCode(parseInt(hex, 16)) : (plain ?? ''),
    ),
    'latin1',
  ).toString('utf8');
}
