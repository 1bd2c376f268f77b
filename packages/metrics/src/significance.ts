import type { Sketch } from './sketch';

/** The level below which a p-value counts as significant. */
export const ALPHA = 0.05;

/** Standard normal CDF (Abramowitz and Stegun 7.1.26 for erf; error below 1.5e-7, ample for a p-value). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

const twoSided = (z: number) => 2 * (1 - normalCdf(Math.abs(z)));

const order = (bucket: string) => (bucket === 'z' ? -Infinity : Number(bucket));

/**
 * Mann-Whitney U on two latency sketches, exact on their buckets: values in
 * one 1% bucket count as ties, which is what the sketch can tell apart. The
 * normal approximation with the tie correction gives the two-sided p-value
 * (the rollups hold at least dozens of turns per window, where it is good).
 */
export function mannWhitney(before: Sketch, after: Sketch): { pValue: number | null } {
  const buckets = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort((a, b) => order(a) - order(b));
  const n1 = Object.values(before).reduce((s, c) => s + c, 0);
  const n2 = Object.values(after).reduce((s, c) => s + c, 0);
  if (n1 === 0 || n2 === 0) return { pValue: null };
  let below = 0;
  let u = 0;
  let ties = 0;
  for (const bucket of buckets) {
    const a = before[bucket] ?? 0;
    const b = after[bucket] ?? 0;
    u += b * (below + a / 2);
    below += a;
    const t = a + b;
    ties += t ** 3 - t;
  }
  const n = n1 + n2;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1) || 1));
  if (variance <= 0) return { pValue: 1 };
  return { pValue: twoSided((u - (n1 * n2) / 2) / Math.sqrt(variance)) };
}

/** Two-proportion z-test (pooled): whether successes/trials changed. */
export function twoProportion(before: { successes: number; trials: number }, after: { successes: number; trials: number }): { pValue: number | null } {
  if (before.trials === 0 || after.trials === 0) return { pValue: null };
  const pooled = (before.successes + after.successes) / (before.trials + after.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / before.trials + 1 / after.trials));
  if (se === 0) return { pValue: 1 };
  return { pValue: twoSided((after.successes / after.trials - before.successes / before.trials) / se) };
}

/** Mann-Whitney U on two samples of raw values (call quality scores), through the same sketch-free rank sum. */
export function mannWhitneyValues(before: readonly number[], after: readonly number[]): { pValue: number | null } {
  const toCounts = (values: readonly number[]) => {
    const counts: Record<string, number> = {};
    for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
    return counts;
  };
  return mannWhitney(toCounts(before), toCounts(after));
}
