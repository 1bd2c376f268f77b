/** A bench's numeric option, `--name N`, or the fallback. */
export function option(args: readonly string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

/** A numeric option that must be a whole number of 1 or more: a bench refuses anything else before it starts. */
export function wholeNumber(args: readonly string[], name: string, fallback: number): number {
  const value = option(args, name, fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number of 1 or more, not ${value}`);
  return value;
}

/** A bench's text option, `--name TEXT`, or the fallback: a directory, a list. */
export function textOption(args: readonly string[], name: string, fallback: string): string {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
}
