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
