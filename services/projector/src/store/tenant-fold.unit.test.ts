import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sketchOf } from '@earshot/metrics';
import { TOPICS, type LogRecord } from '@earshot/log';
import type { Cell, CounterProjection, Row } from '@earshot/read-models';
import { addCount, copyCounters, foldRecords, slotOf, type CounterRows } from './tenant-fold';

// Key columns hold text (no NUL: Postgres text cannot), numbers, booleans and nulls.
const keyValue: fc.Arbitrary<Cell> = fc.oneof(
  fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000')),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

/** A counter read model as the fold sees it: its table, key, merge rules and whether it is sharded. */
const counterOf = (table: string, key: string[], merge: CounterProjection['merge'], sharded = false): CounterProjection => ({
  kind: 'counter',
  name: table,
  version: 1,
  table,
  key,
  handles: [],
  merge,
  rows: () => [],
  ...(sharded ? { sharded: true } : {}),
});

describe('slotOf', () => {
  it('gives two keys one slot only when their values are the same, in the same order', () => {
    fc.assert(
      fc.property(fc.array(keyValue, { minLength: 1, maxLength: 3 }), fc.array(keyValue, { minLength: 1, maxLength: 3 }), (a, b) => {
        expect(slotOf(a) === slotOf(b)).toBe(JSON.stringify(a) === JSON.stringify(b));
      }),
      { numRuns: 5_000 },
    );
  });

  it('tells text from the value it spells, and where one value ends', () => {
    expect(slotOf(['null'])).not.toBe(slotOf([null]));
    expect(slotOf(['1'])).not.toBe(slotOf([1]));
    expect(slotOf(['ab', 'c'])).not.toBe(slotOf(['a', 'bc']));
    expect(slotOf(['', 'x'])).not.toBe(slotOf(['x', '']));
  });
});

describe('addCount', () => {
  const rollup = counterOf('test_rollups', ['metric'], { count: 'sum', sum: 'sum', min: 'min', max: 'max', sketch: 'sketch' });
  const sample = fc.record({ metric: fc.constantFrom('a', 'b', 'c'), value: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }) });
  const rowOf = ({ metric, value }: { metric: string; value: number | null }): Row => ({ metric, count: 1, sum: value, min: value, max: value, sketch: value });

  it('keeps per key the count, sum, min, max and the sketch of every sample its rows gave', () => {
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 60 }), (samples) => {
        const pending: CounterRows = new Map();
        for (const s of samples) addCount(pending, rollup, rowOf(s));
        expect(pending.size).toBe(new Set(samples.map((s) => s.metric)).size);
        for (const row of pending.values()) {
          const mine = samples.filter((s) => s.metric === row.metric);
          const values = mine.flatMap((s) => (s.value === null ? [] : [s.value]));
          expect(row).toEqual({
            metric: row.metric,
            count: mine.length,
            sum: values.length === 0 ? null : values.reduce((a, b) => a + b, 0),
            min: values.length === 0 ? null : Math.min(...values),
            max: values.length === 0 ? null : Math.max(...values),
            sketch: values.length === 0 ? null : sketchOf(values),
          });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('adds to a copy without changing the rows it was copied from (a retried transaction folds them again)', () => {
    const pending: CounterRows = new Map();
    addCount(pending, rollup, rowOf({ metric: 'a', value: 500 }));
    const copy = copyCounters(pending, rollup);
    addCount(copy, rollup, rowOf({ metric: 'a', value: 900 }));
    expect(pending.get(slotOf(['a']))).toEqual({ ...rowOf({ metric: 'a', value: 500 }), sketch: sketchOf([500]) });
    expect(copy.get(slotOf(['a']))?.sketch).toEqual(sketchOf([500, 900]));
  });
});

describe('foldRecords', () => {
  const sharded = counterOf('test_minutes', ['minute', 'shard'], { count: 'sum' }, true);
  const days = counterOf('test_days', ['day'], { count: 'sum' });
  const minute: Row = { minute: '09:31', count: 1 };
  const day: Row = { day: '2026-01-08', count: 1 };
  const recordOf = (offset: number): LogRecord => ({
    topic: TOPICS.events,
    partition: 3,
    offset: String(offset),
    key: `tenant:call-${offset}`,
    value: Buffer.alloc(0),
    headers: {},
    timestamp: 0,
  });

  it("keys a sharded counter's rows by the partition of the batch, and no other counter's", () => {
    const records = [0, 1, 2].map(recordOf);
    const { tenants } = foldRecords(records, (record) => ({
      record,
      derived: {
        tenantId: 'tenant',
        dedupeKey: record.offset,
        effects: [
          { projection: sharded, row: { ...minute } },
          { projection: days, row: { ...day } },
        ],
      },
    }));
    const fold = tenants.get('tenant');
    expect(fold?.shard).toBe(3);
    expect([...(fold?.counters.get(sharded)?.values() ?? [])]).toEqual([{ minute: '09:31', shard: 3, count: 3 }]);
    expect([...(fold?.counters.get(days)?.values() ?? [])]).toEqual([{ day: '2026-01-08', count: 3 }]);
  });

  it("names each row's slot as slotOf names its key, met before or not, and keeps apart keys that differ", () => {
    const agents = counterOf('test_agents', ['agent', 'metric', 'minute'], { count: 'sum' });
    // Few values, so keys repeat; text beside the number, null and boolean it spells, so the slots must tell them apart.
    const value = fc.constantFrom<Cell>('a', '1', 1, 'null', null, true, 'true', '');
    const key = fc.tuple(value, value, value);
    fc.assert(
      fc.property(fc.array(fc.array(key, { maxLength: 4 }), { maxLength: 12 }), (events) => {
        const records = events.map((_, offset) => recordOf(offset));
        const { tenants } = foldRecords(records, (record) => ({
          record,
          derived: {
            tenantId: 'tenant',
            dedupeKey: record.offset,
            effects: (events[Number(record.offset)] ?? []).map(([agent, metric, minute]) => ({ projection: agents, row: { agent, metric, minute, count: 1 } })),
          },
        }));
        const expected = new Map<string, number>();
        for (const [agent, metric, minute] of events.flat()) {
          const slot = slotOf([agent, metric, minute]);
          expected.set(slot, (expected.get(slot) ?? 0) + 1);
        }
        const folded = tenants.get('tenant')?.counters.get(agents) ?? new Map<string, Row>();
        expect(new Map([...folded].map(([slot, row]) => [slot, row.count]))).toEqual(expected);
      }),
      { numRuns: 1_000 },
    );
  });
});
