import { describe, expect, it } from 'vitest';
import { TOPICS, type ConsumeOptions, type EventLog, type LogRecord } from '@earshot/log';
import { onGroupSettled } from '../bench/group-settled';

const unused = () => Promise.reject(new Error('not used here'));

/** A log whose consumers are handed batches by the test, in the order it chooses. */
function handLog(): { log: EventLog; consumers: ConsumeOptions[] } {
  const consumers: ConsumeOptions[] = [];
  const log: EventLog = {
    append: unused,
    consume: (options) => {
      consumers.push(options);
      return Promise.resolve({ stop: () => Promise.resolve() });
    },
    replay: unused,
    subscribe: unused,
    ends: unused,
    ping: () => Promise.resolve(true),
    close: () => Promise.resolve(),
  };
  return { log, consumers };
}

const batch = (offset: number): LogRecord[] => [
  { topic: TOPICS.events, partition: 0, offset: String(offset), key: 'k', value: Buffer.alloc(0), headers: {}, timestamp: 0 },
];

describe("a projector's consumer group, timed once settled", () => {
  it('settles when every consumer opened on the log has had a batch, and times only the batches from then on', async () => {
    const { log, consumers } = handLog();
    let settledAt: number | undefined;
    let delivered = 0;
    const settled = onGroupSettled(log, () => (settledAt = delivered));
    const handled: (readonly LogRecord[])[] = [];
    const onBatch = (records: readonly LogRecord[]) => {
      handled.push(records);
      return Promise.resolve(undefined);
    };
    for (let i = 0; i < 3; i++) await settled.log.consume({ group: 'projector', topics: [TOPICS.events], onBatch });

    // The first consumer, alone in the group for a while, has two batches before the others have one.
    const order = [0, 0, 1, 0, 2, 1, 0];
    const batches = order.map((_, i) => batch(i));
    for (const [i, consumer] of order.entries()) {
      await consumers[consumer]?.onBatch(batches[i] as LogRecord[]);
      delivered++;
    }

    expect(settledAt).toBe(4);
    expect(handled).toEqual(batches);
    expect(batches.map((b) => settled.timed(b))).toEqual([false, false, false, false, true, true, true]);
  });

  it('never settles while a consumer has had no batch', async () => {
    const { log, consumers } = handLog();
    let settledOnce = false;
    const settled = onGroupSettled(log, () => (settledOnce = true));
    const onBatch = () => Promise.resolve(undefined);
    for (let i = 0; i < 2; i++) await settled.log.consume({ group: 'projector', topics: [TOPICS.events], onBatch });
    const batches = [batch(0), batch(1)];
    for (const records of batches) await consumers[0]?.onBatch(records);
    expect({ settledOnce, timed: batches.map((b) => settled.timed(b)) }).toEqual({ settledOnce: false, timed: [false, false] });
  });
});
