import { describe, expect, it } from 'vitest';
import { deadlocked, retryingDeadlocks } from './deadlocks';

const failure = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

/** A transaction that fails with the given codes, one per run, then answers how many runs it took. */
function failingWith(...codes: string[]) {
  let runs = 0;
  return {
    run: () => {
      runs += 1;
      const code = codes[runs - 1];
      return code === undefined ? Promise.resolve(runs) : Promise.reject(failure(code));
    },
    runs: () => runs,
  };
}

describe('retryingDeadlocks', () => {
  it('runs a transaction undone by a deadlock again, and answers what the run that went through answered', async () => {
    const tx = failingWith('40P01', '40P01');
    await expect(retryingDeadlocks(tx.run)).resolves.toBe(3);
  });

  it('gives up after as many tries, with the deadlock', async () => {
    const tx = failingWith('40P01', '40P01', '40P01');
    await expect(retryingDeadlocks(tx.run)).rejects.toMatchObject({ code: '40P01' });
    expect(tx.runs()).toBe(3);
  });

  it('runs nothing again for any other failure', async () => {
    const tx = failingWith('23505');
    await expect(retryingDeadlocks(tx.run)).rejects.toMatchObject({ code: '23505' });
    expect(tx.runs()).toBe(1);
    expect(deadlocked(failure('40001'))).toBe(false);
  });
});
