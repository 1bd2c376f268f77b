import type { KafkaMessage } from './platformatic-stream';

/** What a seek reads of a record: where it belongs. */
type Placed = Pick<KafkaMessage, 'topic' | 'partition' | 'offset'>;

/** What a seek uses of a messages stream: the offsets its next fetches read from, and word of when it refreshes them. */
export interface SeekableStream {
  on(event: 'offsets', listener: () => void): unknown;
  readonly offsetsToFetch: Map<string, bigint>;
}

const slotOf = (message: Placed) => `${message.topic}:${message.partition}`;

/**
 * Seeks partitions of a @platformatic/kafka messages stream, which has no
 * seek of its own: the stream fetches each partition from its offsetsToFetch
 * entry, so a seek sets that entry, sets it again after each of the stream's
 * refreshes from the group's positions (it emits `offsets` just before
 * fetching) until the record at the sought offset arrives, and keeps out
 * every record of the partition fetched before the seek.
 */
export class PartitionSeeks {
  private stream: SeekableStream | undefined;
  private arrivals = 0;
  private readonly arrived = new WeakMap<object, number>();
  /** Per partition, the arrivals counted when it was last sought: records that arrived by then are stale. */
  private readonly soughtAt = new Map<string, number>();
  /** Per partition sought, the offset whose record has not arrived yet. */
  private readonly awaiting = new Map<string, bigint>();

  /** The stream, once made: seeks asked for before (the first assignment comes before it) apply now. */
  attach(stream: SeekableStream): void {
    this.stream = stream;
    stream.on('offsets', () => this.apply());
    this.apply();
  }

  /**
   * A record as the stream emits it: false for one fetched before a seek of its partition. Only a partition whose
   * seek is unsettled has its records stamped (a consumer past its starts pays nothing, whatever partitions it sought
   * that never brought a record): unstamped ones count as arrived before any later seek. What is stamped is what
   * waits for `current`: the message, or what was kept of it.
   */
  arrive(message: Placed, kept: object = message): boolean {
    if (this.soughtAt.size === 0) return true;
    const slot = slotOf(message);
    if (!this.soughtAt.has(slot)) return true;
    this.arrived.set(kept, ++this.arrivals);
    const target = this.awaiting.get(slot);
    if (target === undefined) return true;
    if (message.offset === target) {
      this.awaiting.delete(slot);
      return true;
    }
    // A fetch in flight at the seek answered from the old offset and moved the entry past it: set back before
    // the stream's next fetch reads it (records are emitted within the fetch's callback).
    this.stream?.offsetsToFetch.set(slot, target);
    return false;
  }

  seek(topic: string, partition: number, offset: bigint): void {
    const slot = `${topic}:${partition}`;
    this.awaiting.set(slot, offset);
    this.soughtAt.set(slot, this.arrivals);
    this.stream?.offsetsToFetch.set(slot, offset);
  }

  /** A new assignment: the stream goes back to the group's positions until `start` answers again. */
  assigned(): void {
    this.awaiting.clear();
  }

  /**
   * The records of a batch that arrived after the last seek of their partition. A partition's records come in the order
   * they arrived, so once one from after its seek has come, the rest will too: the seek is settled, and when every seek
   * is, records go unstamped again.
   */
  current<M extends Placed>(messages: readonly M[]): M[] {
    const first = messages[0];
    if (first === undefined) return [];
    const slot = slotOf(first);
    const since = this.soughtAt.get(slot);
    if (since === undefined) return [...messages];
    const after = messages.filter((m) => (this.arrived.get(m) ?? 0) > since);
    if (after.length > 0) this.soughtAt.delete(slot);
    return after;
  }

  private apply(): void {
    for (const [slot, offset] of this.awaiting) this.stream?.offsetsToFetch.set(slot, offset);
  }
}
