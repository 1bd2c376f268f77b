import type { MessagesStream } from '@platformatic/kafka';
import type { KafkaMessage } from './platformatic-stream';

type Stream = MessagesStream<string, Buffer, string, string>;

const slotOf = (message: KafkaMessage) => `${message.topic}:${message.partition}`;

/**
 * Seeks partitions of a @platformatic/kafka messages stream, which has no
 * seek of its own: the stream fetches each partition from its offsetsToFetch
 * entry, so a seek sets that entry, sets it again after each of the stream's
 * refreshes from the group's positions (it emits `offsets` just before
 * fetching) until the record at the sought offset arrives, and keeps out
 * every record of the partition fetched before the seek.
 */
export class PartitionSeeks {
  private stream: Stream | undefined;
  private arrivals = 0;
  private readonly arrived = new WeakMap<KafkaMessage, number>();
  /** Per partition, the arrivals counted when it was last sought: records that arrived by then are stale. */
  private readonly soughtAt = new Map<string, number>();
  /** Per partition sought, the offset whose record has not arrived yet. */
  private readonly awaiting = new Map<string, bigint>();

  /** The stream, once made: seeks asked for before (the first assignment comes before it) apply now. */
  attach(stream: Stream): void {
    this.stream = stream;
    stream.on('offsets', () => this.apply());
    this.apply();
  }

  /**
   * A record as the stream emits it: false for one fetched before a seek of its partition. Until the first seek
   * none is stamped (a consumer that never seeks pays nothing): unstamped records count as arrived before any seek.
   */
  arrive(message: KafkaMessage): boolean {
    if (this.soughtAt.size === 0) return true;
    this.arrived.set(message, ++this.arrivals);
    const slot = slotOf(message);
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

  /** The records of a batch that arrived after the last seek of their partition. */
  current(messages: readonly KafkaMessage[]): KafkaMessage[] {
    const first = messages[0];
    const since = first === undefined ? undefined : this.soughtAt.get(slotOf(first));
    return since === undefined ? [...messages] : messages.filter((m) => (this.arrived.get(m) ?? 0) > since);
  }

  private apply(): void {
    for (const [slot, offset] of this.awaiting) this.stream?.offsetsToFetch.set(slot, offset);
  }
}
