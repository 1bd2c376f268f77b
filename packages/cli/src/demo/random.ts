import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { mersenne } from 'pure-rand/generator/mersenne';

type Generator = ReturnType<typeof mersenne>;

/** A seeded source of the demo's randomness: the same seed gives the same traffic. */
export class Random {
  private readonly generator: Generator;

  constructor(seed: number) {
    this.generator = mersenne(seed);
  }

  /** In [0, 1). */
  float(): number {
    return uniformFloat64(this.generator);
  }

  /** In [from, to], both included. */
  int(from: number, to: number): number {
    return uniformInt(this.generator, from, to);
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** One of the entries, each as likely as its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let left = this.float() * total;
    for (const [value, weight] of entries) {
      left -= weight;
      if (left < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error('weighted pick from an empty list');
    return last[0];
  }

  /**
   * Log-normal around a median: what latencies look like, a tight body and a
   * long right tail. `sigma` is the spread of the underlying normal.
   */
  lognormal(median: number, sigma: number): number {
    // Box-Muller; 1 - float() keeps the logarithm away from zero.
    const normal = Math.sqrt(-2 * Math.log(1 - this.float())) * Math.cos(2 * Math.PI * this.float());
    return median * Math.exp(sigma * normal);
  }

  hex(length: number): string {
    return Array.from({ length }, () => this.int(0, 15).toString(16)).join('');
  }
}
