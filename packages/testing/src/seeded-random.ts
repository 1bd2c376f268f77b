/** A seed for a randomized test: RELIABILITY_SEED when set (to replay a failure), otherwise a fresh one. */
export function testSeed(): number {
  const given = process.env.RELIABILITY_SEED;
  return given ? Number(given) >>> 0 : Math.floor(Math.random() * 2 ** 32);
}

/** A reproducible stream of numbers in [0, 1) from a 32-bit seed (mulberry32), so a failing run can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
