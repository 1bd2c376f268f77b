import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { storedText } from '../text';
import { freeText, queryTime } from './list';

describe('a date-time a client sends', () => {
  it('is read as UTC, whatever its offset (an offset PostgreSQL refuses, +17:27, was a 500)', () => {
    expect(queryTime.parse('0284-07-29T11:03:37.138247+17:27')).toBe('0284-07-28T17:36:37.138Z');
  });

  it('refuses years 0000, 0001 and 9999, which an offset could take out of what PostgreSQL stores, and says so in the document', () => {
    for (const year of ['0000', '0001', '9999']) expect(queryTime.safeParse(`${year}-06-01T00:00:00Z`).success, year).toBe(false);
    expect(queryTime.safeParse('0002-01-01T00:00:00+23:59').success).toBe(true);
    expect(JSON.stringify(z.toJSONSchema(queryTime, { io: 'input' }))).toContain('(?!000[01]|9999)');
  });
});

describe('text a record keeps', () => {
  it('refuses NUL, which PostgreSQL cannot hold (a write with one stopped the projector; a filter with one was a 500), and says so in the document', () => {
    expect(storedText(10).safeParse('a\u0000b').success).toBe(false);
    expect(freeText(10).safeParse('a\u0000b').success).toBe(false);
    expect(storedText(10).parse('')).toBe('');
    expect(JSON.stringify(z.toJSONSchema(storedText(10), { io: 'input' }))).toContain('u0000');
  });
});

describe('free text', () => {
  it('refuses only spaces as the document does (a trim once made "\\r" empty after the document had let it through)', () => {
    const title = freeText(10);
    expect(title.safeParse('\u000b\r').success).toBe(false);
    expect(title.parse(' v1 ')).toBe(' v1 ');
    expect(JSON.stringify(z.toJSONSchema(title, { io: 'input' }))).toContain('[^\\\\t\\\\n\\\\v\\\\f\\\\r ]');
  });
});
