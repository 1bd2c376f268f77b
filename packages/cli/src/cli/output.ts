import Table from 'cli-table3';

/** Writes a line to stdout; everything a command answers goes through here or `printJson`. */
export function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Writes a warning to stderr: the command did its work, with something the reader must know about it. */
export function warn(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** One value as indented JSON, for `--json` on a command that answers one thing. */
export function printJson(value: unknown): void {
  say(JSON.stringify(value, null, 2));
}

/** One JSON object per line, for `--json` on a list: a script reads it line by line, no jq needed. */
export function printNdjson(item: unknown): void {
  say(JSON.stringify(item));
}

/** Rules between rows only under the heading: a long list stays one line per row. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** A table for people, without colour so it reads the same in a pipe and in a snapshot. */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const rendered = new Table({ head: [...head], chars: COMPACT, style: { head: [], border: [] } });
  for (const row of rows) rendered.push([...row]);
  return rendered.toString();
}

/** A nullable value as a table cell. */
export const cell = (value: string | number | boolean | null | undefined, empty = '-'): string =>
  value === null || value === undefined ? empty : String(value);

/** Milliseconds as a table cell: `1,234 ms`, or `-` when not measured. */
export const millis = (value: number | null | undefined): string => (value === null || value === undefined ? '-' : `${value.toLocaleString('en-US')} ms`);
