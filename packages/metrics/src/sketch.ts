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

function bucketOf(value: number): string {
  return value <= 0 ? ZERO : String(Math.ceil(Math.log(value) / LOG_GAMMA));
}

/**
 * A sketch with no buckets yet, whose buckets V8 keeps in a dictionary.
 * Bucket indexes are integer-like keys, which V8 otherwise stores in an
 * array as long as the highest index: 4 KB and ~20 µs for a one-value
 * sketch of a 500 ms latency, more than the rest of its event's projection.
 * One index far out of range turns the object's elements into a dictionary
 * for good; deleting it leaves the sketch empty.
 */
function emptySketch(): Sketch {
  const sketch: Sketch = {};
  sketch[FAR_INDEX] = 0;
  delete sketch[FAR_INDEX];
  return sketch;
}

const FAR_INDEX = String(2 ** 30);

/** A copy of a sketch, kept as a dictionary too (an object spread would make it an array again). */
export function copySketch(sketch: Sketch): Sketch {
  const copy = emptySketch();
  for (const bucket in sketch) copy[bucket] = sketch[bucket] ?? 0;
  return copy;
}

/** Counts one more value into the sketch, in place. */
export function addSample(sketch: Sketch, value: number): void {
  const bucket = bucketOf(value);
  sketch[bucket] = (sketch[bucket] ?? 0) + 1;
}

export function sketchOf(values: readonly number[]): Sketch {
  const sketch = emptySketch();
  for (const value of values) addSample(sketch, value);
  return sketch;
}

/**
 * Sketches added up bucket by bucket: the sketch of every value they hold.
 * Counts are kept by numeric bucket index and sorted once, when a quantile
 * is read: sketch keys are integer-like, and walking them as object keys
 * (for…in, Object.entries) turns every index into a string again, which cost
 * more than the rest of a percentile series.
 */
export class SketchSum {
  private readonly counts = new Map<number, number>();
  private zeros = 0;
  private total = 0;

  add(sketch: Sketch): this {
    const buckets = Object.keys(sketch);
    for (let i = 0; i < buckets.length; i++) {
      const bucket = buckets[i] as string;
      const count = sketch[bucket] ?? 0;
      this.total += count;
      if (bucket === ZERO) this.zeros += count;
      else {
        const index = Number(bucket);
        this.counts.set(index, (this.counts.get(index) ?? 0) + count);
      }
    }
    return this;
  }

  /** The q-quantile (0 to 1) of the values added; null when there are none. */
  quantile(q: number): number | null {
    if (this.total === 0) return null;
    const rank = q * (this.total - 1);
    if (this.zeros > rank) return 0;
    let running = this.zeros;
    for (const index of [...this.counts.keys()].sort((x, y) => x - y)) {
      running += this.counts.get(index) ?? 0;
      if (running > rank) return (2 * GAMMA ** index) / (GAMMA + 1);
    }
    return null;
  }
}

/** The q-quantile (0 to 1) of the values in the sketch; null for an empty sketch. */
export function quantile(sketch: Sketch, q: number): number | null {
  return new SketchSum().add(sketch).quantile(q);
}
