const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59.999Z: past it, and before 1970, the time is left to Date's own form (signed six-digit years). */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;

let cachedDay = Number.NaN;
let cachedDate = '';

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, character for character, without a Date per call: decoding an event turns each of
 * its timestamp-millis fields back into ISO text, and Date#toISOString cost the projector more than the rest of
 * the Avro conversion. The date part is Date's, kept for the last day asked (a batch's events share their days).
 */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST_FOUR_DIGIT_YEAR_MS) return new Date(ms).toISOString();
  const rest = ms % DAY_MS;
  const day = ms - rest;
  if (day !== cachedDay) {
    cachedDate = new Date(day).toISOString().slice(0, 11);
    cachedDay = day;
  }
  const hours = Math.floor(rest / 3_600_000);
  const minutes = Math.floor((rest % 3_600_000) / 60_000);
  const seconds = Math.floor((rest % 60_000) / 1_000);
  return `${cachedDate}${two(hours)}:${two(minutes)}:${two(seconds)}.${three(rest % 1_000)}Z`;
}

/** The date part (`2026-01-08T`) of the day last parsed, and its time; no text starts with the first. */
let parsedPrefix = '\u0000';
let parsedDay = Number.NaN;

/** The digit at `at`, or NaN: `charCodeAt - 48` alone would let ':' through as 10. */
function digit(text: string, at: number): number {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : Number.NaN;
}

/**
 * `Date.parse(text)`, the other way: text in the form isoTime writes (every timestamp after validation) is read
 * with the date part parsed once for the day last asked, the time of day by arithmetic. Encoding an event parses
 * each of its timestamps, and Date.parse cost five times as much. Any other text is left to Date.parse.
 */
export function isoMillis(text: string): number {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 /* Z */ || text[13] !== ':' || text[16] !== ':' || text[19] !== '.') return Date.parse(text);
  const hours = digit(text, 11) * 10 + digit(text, 12);
  const minutes = digit(text, 14) * 10 + digit(text, 15);
  const seconds = digit(text, 17) * 10 + digit(text, 18);
  const millis = digit(text, 20) * 100 + digit(text, 21) * 10 + digit(text, 22);
  // NaN fails every comparison, so a non-digit goes to Date.parse too.
  if (!(hours < 24 && minutes < 60 && seconds < 60 && millis >= 0)) return Date.parse(text);
  if (!text.startsWith(parsedPrefix)) {
    const prefix = text.slice(0, 11);
    const day = /^\d{4}-\d\d-\d\dT$/.test(prefix) ? Date.parse(`${prefix}00:00:00.000Z`) : Number.NaN;
    if (Number.isNaN(day)) return Date.parse(text);
    parsedPrefix = prefix;
    parsedDay = day;
  }
  return parsedDay + hours * 3_600_000 + minutes * 60_000 + seconds * 1_000 + millis;
}
