/**
 * Merge rules that make a read model independent of event order: each is
 * commutative, associative and idempotent, so any permutation of the same
 * events, with any duplicates, merges to the same value.
 */

/** A value with the stamp of the event that set it. */
export interface Register<T> {
  at: string;
  value: T;
}

/** The value set by the latest event (by stamp); absent on either side, the other. */
export function latest<T>(a: Register<T> | null, b: Register<T> | null): Register<T> | null {
  if (!a) return b;
  if (!b) return a;
  return b.at > a.at ? b : a;
}

/** The value set by the earliest event (by stamp). */
export function earliest<T>(a: Register<T> | null, b: Register<T> | null): Register<T> | null {
  if (!a) return b;
  if (!b) return a;
  return b.at < a.at ? b : a;
}

/** The earlier of two ISO timestamps; null means "not seen". */
export function minTime(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a <= b ? a : b;
}

export function maxTime(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a >= b ? a : b;
}

/** Per-key merge of two maps with the same rule for every key. */
export function mergeMaps<T>(a: Record<string, T>, b: Record<string, T>, merge: (x: T, y: T) => T): Record<string, T> {
  // Most events of a call carry no entries: merging them must not copy the call's map each time.
  if (isEmpty(b)) return a;
  if (isEmpty(a)) return b;
  const out: Record<string, T> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = Object.hasOwn(out, key) ? out[key] : undefined;
    // Defined, not assigned: a sender's "__proto__" key is then stored like any other, not taken as the map's prototype.
    Object.defineProperty(out, key, { value: mine === undefined ? value : merge(mine, value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Keys in one order, so equal maps serialize equal whatever the merge order (jsonb orders keys itself when stored). */
export function sortKeys<T>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

function isEmpty(map: Record<string, unknown>): boolean {
  for (const _key in map) return false;
  return true;
}

/** Sets are sorted arrays without repeats (as union makes them, or of one element), so an empty side leaves the other as it is. */
export function union(a: readonly string[], b: readonly string[]): readonly string[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  return [...new Set([...a, ...b])].sort();
}

/** A register for a value the event may not carry. */
export function stamped<T>(at: string, value: T | null | undefined): Register<T> | null {
  return value === null || value === undefined ? null : { at, value };
}

/** Registers for a value's fields, each with the stamp of the event that set it. */
export type Parts<V> = { [K in keyof V]: Register<V[K]> | null };

/** Parts that one event set, as its stamp once and their values (an absent part null). */
export type Packed<V> = Register<{ [K in keyof V]: V[K] | null }>;

/**
 * The form parts are stored in: one stamp for parts one event set, which is nearly always (a turn's report stored a
 * ~65-byte stamp per part: four fifths of a call's facts); parts from several events as they are. A function of the
 * parts alone, so what a merge stores does not depend on the order of the events either.
 */
export function pack<V>(parts: Parts<V>): Parts<V> | Packed<V> {
  let at: string | undefined;
  for (const key in parts) {
    const part = parts[key];
    if (part === null || part === undefined) continue;
    if (at === undefined) at = part.at;
    else if (part.at !== at) return parts;
  }
  return at === undefined ? parts : { at, value: valuesOf(parts) };
}

/** The values of either stored form, a part no event set null. */
export function valuesOf<V>(stored: Parts<V> | Packed<V>): Packed<V>['value'] {
  if (isPacked(stored)) return stored.value;
  const values = {} as Packed<V>['value'];
  for (const key in stored) values[key] = stored[key]?.value ?? null;
  return values;
}

/** The parts of either stored form. */
export function unpack<V>(stored: Parts<V> | Packed<V>): Parts<V> {
  if (!isPacked(stored)) return stored;
  const parts = {} as Parts<V>;
  for (const key in stored.value) {
    const value = stored.value[key];
    parts[key] = value === null ? null : { at: stored.at, value };
  }
  return parts;
}

function isPacked<V>(stored: Parts<V> | Packed<V>): stored is Packed<V> {
  return typeof (stored as Partial<Packed<V>>).at === 'string' && 'value' in stored;
}

/** The median, with the two middle values averaged for an even count; rounded to whole milliseconds. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : Math.round(((sorted[mid - 1] ?? upper) + upper) / 2);
}
