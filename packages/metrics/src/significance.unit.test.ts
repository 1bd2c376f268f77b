import { describe, expect, it } from 'vitest';
import { sketchOf } from './sketch';
import { mannWhitney, mannWhitneyValues, normalCdf, twoProportion } from './significance';

describe('significance tests', () => {
  it('normalCdf matches the standard table', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 4);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 4);
  });

  it('Mann-Whitney on sketches: the same distribution is not significant, a doubled latency is', () => {
    const base = Array.from({ length: 200 }, (_, i) => 600 + (i % 40) * 10);
    expect(mannWhitney(sketchOf(base), sketchOf(base)).pValue).toBeCloseTo(1, 6);
    const slower = base.map((v) => v * 2);
    expect(mannWhitney(sketchOf(base), sketchOf(slower)).pValue).toBeLessThan(1e-6);
    expect(mannWhitney(sketchOf(base), {}).pValue).toBeNull();
  });

  it('Mann-Whitney on values: [1,2,3,4,6] vs [5,7,8,9,10] has U = 24 of 25, z = 11.5 / √22.92, p ≈ 0.0163', () => {
    expect(mannWhitneyValues([1, 2, 3, 4, 6], [5, 7, 8, 9, 10]).pValue).toBeCloseTo(0.0163, 3);
  });

  it('two-proportion z-test: 90% vs 70% of 200 calls is significant, 90% vs 89% is not', () => {
    expect(twoProportion({ successes: 180, trials: 200 }, { successes: 140, trials: 200 }).pValue).toBeLessThan(0.001);
    expect(twoProportion({ successes: 180, trials: 200 }, { successes: 178, trials: 200 }).pValue).toBeGreaterThan(0.5);
    expect(twoProportion({ successes: 0, trials: 0 }, { successes: 1, trials: 2 }).pValue).toBeNull();
  });
});
