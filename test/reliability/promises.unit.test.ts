import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROMISES } from './promises';

describe('the reliability table of issue #20', () => {
  it('has the issue’s 20 promises', () => {
    expect(PROMISES).toHaveLength(20);
  });

  it('names only tests that exist, by their exact title, so a renamed test cannot drop out of the table unseen', () => {
    const missing = PROMISES.flatMap((promise) =>
      promise.keptBy
        .filter((kept) => !existsSync(kept.file) || !readFileSync(kept.file, 'utf8').includes(`'${kept.title}'`))
        .map((kept) => `${kept.file}: ${kept.title}`),
    );
    expect(missing).toEqual([]);
  });

  it('says what is missing wherever a promise has no test', () => {
    expect(PROMISES.filter((promise) => promise.keptBy.length === 0 && promise.gap === undefined).map((promise) => promise.promise)).toEqual([]);
  });
});
