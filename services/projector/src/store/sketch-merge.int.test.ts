import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, sql, type ConnectionPool } from '@earshot/db';
import { openTestDatabase } from '@earshot/testing';
import { PROJECTOR_MIGRATIONS } from './migration-sets';

type Bins = Record<string, number>;

/** Sketches as the projector writes them: bucket indexes (negative below 1 ms) and "z", each with a count. */
const sketch = fc.dictionary(fc.oneof(fc.constant('z'), fc.integer({ min: -20, max: 400 }).map(String)), fc.integer({ min: 1, max: 1_000_000 }), {
  minKeys: 0,
  maxKeys: 40,
});

const added = (a: Bins, b: Bins): Bins => {
  const sum: Bins = { ...a };
  for (const [bin, n] of Object.entries(b)) sum[bin] = (sum[bin] ?? 0) + n;
  return sum;
};

describe('earshot_sketch_merge', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('sketch_merge'));
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
  });
  afterAll(async () => close());

  const merge = async (a: Bins | null, b: Bins | null) =>
    (
      (await db.query(
        sql`select earshot_sketch_merge(${a === null ? null : JSON.stringify(a)}::jsonb, ${b === null ? null : JSON.stringify(b)}::jsonb) as m`,
      )) as { m: Bins | null }[]
    )[0]?.m;

  it('adds counts bin by bin, in either order', async () => {
    await fc.assert(
      fc.asyncProperty(sketch, sketch, async (a, b) => {
        expect(await merge(a, b)).toEqual(added(a, b));
        expect(await merge(b, a)).toEqual(added(a, b));
      }),
      { numRuns: 150 },
    );
  });

  it('takes a missing side as empty', async () => {
    expect(await merge(null, { '12': 1 })).toEqual({ '12': 1 });
    expect(await merge({ z: 2 }, null)).toEqual({ z: 2 });
    expect(await merge(null, null)).toBeNull();
    expect(await merge({ '3': 1 }, {})).toEqual({ '3': 1 });
  });

  it('is what earshot_sketch_union folds rows with', async () => {
    const rows = [{ '1': 1, z: 1 }, { '1': 2, '7': 5 }, { '7': 1 }];
    const [union] = (await db.query(sql`select earshot_sketch_union(s) as u from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) s`)) as { u: Bins }[];
    expect(union?.u).toEqual({ '1': 3, '7': 6, z: 1 });
  });
});
