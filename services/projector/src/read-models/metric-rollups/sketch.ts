/**
 * A mergeable latency sketch in the manner of DDSketch: logarithmic buckets
 * with gamma = (1 + a) / (1 - a) for a relative accuracy a of 1%, so any
 * quantile read from it is within 1% of the true value. A sketch is a map
 * from bucket index to count ("z" holds zeros); merging adds counts, so
 * sketches of minutes merge into the sketch of any range. The same rules
 * live in SQL (earshot_sketch_merge, earshot_sketch_union,
 * earshot_sketch_quantile) for the query service.
 */
export type Sketch = Record<string, number>;

export const RELATIVE_ACCURACY = 0.01;
const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
const LOG_GAMMA = Math.log(GAMMA);
const ZERO = 'z';

export function bucketOf(value: number): string {
  return value <= 0 ? ZERO : String(Math.ceil(Math.log(value) / LOG_GAMMA));
}

export function sketchOf(values: readonly number[]): Sketch {
  const sketch: Sketch = {};
  for (const value of values) {
    const bucket = bucketOf(value);
    sketch[bucket] = (sketch[bucket] ?? 0) + 1;
  }
  return sketch;
}

export function mergeSketches(a: Sketch | null, b: Sketch | null): Sketch | null {
  if (!a) return b;
  if (!b) return a;
  const out: Sketch = { ...a };
  for (const [bucket, count] of Object.entries(b)) out[bucket] = (out[bucket] ?? 0) + count;
  return out;
}

/** The q-quantile (0 to 1) of the values in the sketch; null for an empty sketch. */
export function quantile(sketch: Sketch, q: number): number | null {
  const buckets = Object.entries(sketch)
    .map(([bucket, count]) => ({ index: bucket === ZERO ? null : Number(bucket), count }))
    .sort((x, y) => (x.index ?? -Infinity) - (y.index ?? -Infinity));
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  if (total === 0) return null;
  const rank = q * (total - 1);
  let running = 0;
  for (const { index, count } of buckets) {
    running += count;
    if (running > rank) return index === null ? 0 : (2 * GAMMA ** index) / (GAMMA + 1);
  }
  return null;
}
