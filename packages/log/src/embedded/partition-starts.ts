import type { PartitionStart } from '../event-log';
import type { Slot } from './partition-reader';

const slotOf = (slot: Slot) => `${slot.topic}:${slot.partition}`;

/**
 * A consumer's `start` on the embedded log: a partition is assigned when this
 * consumer takes its lease (again), and where `start` answers (or a batch
 * handler's ReadAgain), it is read from there until its next commit moves the
 * group's position.
 */
export class PartitionStarts {
  private owned = new Set<string>();
  private readonly seeks = new Map<string, bigint>();

  constructor(private readonly start: PartitionStart | undefined) {}

  /** Asks `start` for each slot leased now that was not leased at the last look. */
  async assigned(leased: readonly Slot[]): Promise<void> {
    const now = new Set(leased.map(slotOf));
    for (const key of this.seeks.keys()) if (!now.has(key)) this.seeks.delete(key);
    const taken = leased.filter((slot) => !this.owned.has(slotOf(slot)));
    // Owned only once asked: a failed answer is asked again at the next look.
    for (const slot of taken) {
      const offset = this.start ? await this.start(slot.topic, slot.partition) : undefined;
      if (offset !== undefined) this.seeks.set(slotOf(slot), BigInt(offset));
      this.owned.add(slotOf(slot));
    }
    this.owned = new Set([...this.owned].filter((key) => now.has(key)));
  }

  /** Where to read a slot from, when `start` moved it. */
  next(slot: Slot): bigint | undefined {
    return this.seeks.get(slotOf(slot));
  }

  /** A batch handler's ReadAgain: the slot is read from there until its next commit, as from `start`'s answer. */
  readAgain(slot: Slot, offset: bigint): void {
    this.seeks.set(slotOf(slot), offset);
  }

  committed(slot: Slot): void {
    this.seeks.delete(slotOf(slot));
  }
}
