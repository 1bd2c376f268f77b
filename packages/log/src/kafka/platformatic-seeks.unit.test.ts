import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PartitionSeeks, type SeekableStream } from './platformatic-seeks';

/** A messages stream as far as a seek uses it: its next fetches' offsets, refreshed from the group's positions on `offsets`. */
class FetchingStream extends EventEmitter implements SeekableStream {
  readonly offsetsToFetch = new Map<string, bigint>();

  refresh(slot: string, committed: bigint): void {
    this.offsetsToFetch.set(slot, committed);
    this.emit('offsets');
  }
}

const record = (partition: number, offset: number) => ({ topic: 'events', partition, offset: BigInt(offset) });

/** Records as drainBatches keeps them: those `arrive` admits. */
function arriving(seeks: PartitionSeeks, records: ReturnType<typeof record>[]) {
  return records.filter((r) => seeks.arrive(r));
}

describe('PartitionSeeks', () => {
  it('passes every record while nothing was sought', () => {
    const seeks = new PartitionSeeks();
    seeks.attach(new FetchingStream());
    const batch = arriving(seeks, [record(0, 0), record(0, 1)]);
    expect(seeks.current(batch)).toEqual(batch);
  });

  it('sets the sought offset, and sets it again after the stream refreshes it, until its record arrives', () => {
    const stream = new FetchingStream();
    const seeks = new PartitionSeeks();
    seeks.seek('events', 0, 40n);
    seeks.attach(stream);
    expect(stream.offsetsToFetch.get('events:0')).toBe(40n);
    stream.refresh('events:0', 7n);
    expect(stream.offsetsToFetch.get('events:0')).toBe(40n);
    expect(arriving(seeks, [record(0, 40)])).toHaveLength(1);
    stream.refresh('events:0', 7n);
    expect(stream.offsetsToFetch.get('events:0')).toBe(7n);
  });

  it('drops records fetched from before the seek, at arrival and in a batch already waiting', () => {
    const stream = new FetchingStream();
    const seeks = new PartitionSeeks();
    seeks.attach(stream);
    const waiting = arriving(seeks, [record(0, 10), record(0, 11), record(1, 5)]);
    seeks.seek('events', 0, 3n);
    // A fetch in flight at the seek answers from the old offset: its records are refused, and the offset set back.
    expect(arriving(seeks, [record(0, 12)])).toEqual([]);
    expect(stream.offsetsToFetch.get('events:0')).toBe(3n);
    const fetched = arriving(seeks, [record(0, 3), record(0, 4)]);
    expect(seeks.current(waiting.filter((r) => r.partition === 0))).toEqual([]);
    expect(seeks.current(waiting.filter((r) => r.partition === 1))).toEqual([record(1, 5)]);
    expect(seeks.current(fetched)).toEqual([record(0, 3), record(0, 4)]);
  });

  it('keeps a settled seek from dropping later records, and a new seek drops those that came before it', () => {
    const seeks = new PartitionSeeks();
    seeks.attach(new FetchingStream());
    seeks.seek('events', 0, 3n);
    expect(seeks.current(arriving(seeks, [record(0, 3), record(0, 4)]))).toHaveLength(2);
    // Settled: the partition's records since need no stamp to pass.
    const later = arriving(seeks, [record(0, 5), record(0, 6)]);
    expect(seeks.current(later)).toEqual(later);
    const beforeAgain = arriving(seeks, [record(0, 7)]);
    seeks.seek('events', 0, 5n);
    const again = arriving(seeks, [record(0, 5)]);
    expect(seeks.current(beforeAgain)).toEqual([]);
    expect(seeks.current(again)).toEqual([record(0, 5)]);
  });

  it('sorts what was kept of each record as it would the records', () => {
    const seeks = new PartitionSeeks();
    seeks.attach(new FetchingStream());
    const keeping = (records: ReturnType<typeof record>[]) =>
      records.flatMap((r) => {
        const kept = { topic: r.topic, partition: r.partition, offset: r.offset, kept: true };
        return seeks.arrive(r, kept) ? [kept] : [];
      });
    seeks.seek('events', 0, 3n);
    const waiting = keeping([record(0, 3)]);
    seeks.seek('events', 0, 3n);
    const after = keeping([record(0, 3), record(0, 4)]);
    expect(seeks.current(waiting)).toEqual([]);
    expect(seeks.current(after)).toEqual(after);
  });

  it('drops records that came before a seek of their partition while another partition’s seek waited for its record', () => {
    const seeks = new PartitionSeeks();
    seeks.attach(new FetchingStream());
    // Partition 1 is sought and never brings a record: partition 0's records still pass, unstamped.
    seeks.seek('events', 1, 9n);
    const before = arriving(seeks, [record(0, 20), record(0, 21)]);
    expect(seeks.current(before)).toEqual(before);
    const waiting = arriving(seeks, [record(0, 22)]);
    seeks.seek('events', 0, 21n);
    const after = arriving(seeks, [record(0, 21), record(0, 22)]);
    expect(seeks.current(waiting)).toEqual([]);
    expect(seeks.current(after)).toEqual(after);
  });
});
