const BARS = '▁▂▃▄▅▆▇█';

/** A series as a one-line bar chart; a gap (no measurement) is a space. */
export function sparkline(values: readonly (number | null)[]): string {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return '';
  const low = Math.min(...present);
  const span = Math.max(...present) - low;
  return values.map((v) => (v === null ? ' ' : BARS[span === 0 ? 0 : Math.round(((v - low) / span) * (BARS.length - 1))])).join('');
}

/** Whether block characters will show: a terminal that is not the dumb one, in a UTF-8 locale. */
export function canDrawSparkline(env: NodeJS.ProcessEnv = process.env): boolean {
  const locale = env.LC_ALL ?? env.LC_CTYPE ?? env.LANG ?? '';
  return process.stdout.isTTY && env.TERM !== 'dumb' && /utf-?8/i.test(locale);
}
