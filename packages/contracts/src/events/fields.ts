import { z } from 'zod';

/**
 * A field the sender may leave out. Absent and null both become null, which
 * is what Avro decoding gives back, so a stored event reads back unchanged.
 */
export function maybe<T extends z.ZodType>(schema: T) {
  return schema.nullable().default(null);
}

function toUtcMillis(value: string): string {
  const ms = Date.parse(value);
  // overwrite() also runs on values that failed the format check; those keep their text for the error report.
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/**
 * An ISO-8601 date-time with any offset, normalized to UTC at millisecond
 * precision: Avro timestamp-millis keeps no more, and every consumer sees one form.
 */
export const timestamp = z.iso.datetime({ offset: true }).overwrite(toUtcMillis);

/** Milliseconds, or any count, that fits an Avro int. */
export const nonNegativeInt = z.int32().min(0);

/**
 * Milliseconds, cents or counts that may exceed an Avro int (alert windows,
 * log offsets, prices). avsc encodes a long held in a JS number only while
 * it is exact, up to 2^53 - 2; one more was a codec error after validation.
 */
export const nonNegativeLong = z
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER - 1);

/** Any JSON the sender sent; stored as JSON text. */
export const jsonValue = z.json();
