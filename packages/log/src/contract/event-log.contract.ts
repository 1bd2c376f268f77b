import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventLog, LogRecord } from '../event-log';
import { PARTITIONS, TOPICS } from '../topics';
import { appendNumbered, collect, consumeUntil, eventually, numberOf, value } from './fixtures';

/**
 * The behaviour every EventLog adapter must show. Each test gets a fresh,
 * isolated log from `open` (its own topics and consumer groups); given a
 * namespace, `open` starts a log on that one, as replicas of a process share
 * theirs.
 */
export function eventLogContract(adapter: string, open: (namespace?: string) => Promise<EventLog>): void {
  describe(`EventLog contract: ${adapter}`, () => {
    const opened: EventLog[] = [];
    const fresh = async () => {
      const log = await open();
      opened.push(log);
      return log;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((log) => log.close()));
    });

    it('starts three processes on one namespace at the same moment, each creating what it needs, all serving it', async () => {
      const namespace = `t-together-${randomBytes(4).toString('hex')}.`;
      const logs = await Promise.all([1, 2, 3].map(() => open(namespace)));
      opened.push(...logs);
      const [position] = await (logs[0] as EventLog).append([{ topic: TOPICS.events, key: 'together', value: Buffer.from('one') }]);
      expect(position?.offset).toBe('0');
      expect(await Promise.all(logs.map((log) => log.ping()))).toEqual([true, true, true]);
    });

    it('consumes 10,000 appended events back complete and in per-key order, with the bytes and headers unchanged', async () => {
      const log = await fresh();
      const sent = await appendNumbered(log, 10_000, 40);
      const seen: LogRecord[] = [];
      const consumer = await log.consume({ group: 'projector', topics: [TOPICS.events], onBatch: async (batch) => void seen.push(...batch) });
      await eventually(() => seen.length >= sent.length, 60_000);
      await consumer.stop();

      expect(seen).toHaveLength(sent.length);
      expect(new Set(seen.map(numberOf)).size).toBe(sent.length);
      const byKey = new Map<string, number[]>();
      for (const record of seen) byKey.set(record.key, [...(byKey.get(record.key) ?? []), numberOf(record)]);
      for (const numbers of byKey.values()) expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      const first = seen.find((r) => numberOf(r) === 0);
      expect(first?.value.subarray(0, 2)).toEqual(Buffer.from([0xc3, 0x01]));
      expect(first?.headers).toMatchObject({ 'earshot-type': 'call.started', 'earshot-seq': '0' });
    });

    it('answers each append with the position the record was stored at', async () => {
      const log = await fresh();
      const positions = await appendNumbered(log, 20, 2);
      const seen = await collect(log, 20);
      for (const record of seen) {
        const position = positions[numberOf(record)];
        expect(position).toEqual({ topic: record.topic, partition: record.partition, offset: record.offset });
      }
    });

    it("takes appends of 3 MB to one key at once, past the broker's largest batch, answering every position", async () => {
      const log = await fresh();
      const padding = Buffer.alloc(1_000, 0x61);
      const records = Array.from({ length: 3_000 }, (_, seq) => ({
        topic: TOPICS.events,
        key: 'tenant-1:one-long-call',
        value: Buffer.concat([value(seq), padding]),
        headers: { 'earshot-type': 'call.started', 'earshot-seq': String(seq) },
      }));
      const [first, second] = await Promise.all([log.append(records.slice(0, 1_500)), log.append(records.slice(1_500))]);
      const positions = [...(first ?? []), ...(second ?? [])];
      const seen = await collect(log, 3_000);
      for (const record of seen) expect(positions[numberOf(record)]).toEqual({ topic: record.topic, partition: record.partition, offset: record.offset });
    });

    it('resumes a restarted consumer from its committed position, losing nothing', async () => {
      const log = await fresh();
      await appendNumbered(log, 2_000, 10);
      const firstRun = await consumeUntil(log, 1, {}, 30_000);

      await appendNumbered(log, 1_000, 10, 2_000);
      const secondRun: LogRecord[] = [];
      const second = await log.consume({ group: 'projector', topics: [TOPICS.events], onBatch: async (batch) => void secondRun.push(...batch) });
      await eventually(() => new Set([...firstRun, ...secondRun].map(numberOf)).size >= 3_000, 60_000);
      await second.stop();

      const firstNumbers = new Set(firstRun.map(numberOf));
      // Committed positions mean the second run starts where the first stopped, not from the beginning.
      expect(secondRun.filter((r) => firstNumbers.has(numberOf(r)))).toHaveLength(0);
      expect(new Set([...firstRun, ...secondRun].map(numberOf)).size).toBe(3_000);
    });

    it('does not commit a batch whose handler failed, so it is delivered again', async () => {
      const log = await fresh();
      await appendNumbered(log, 10, 1);
      let failures = 0;
      const seen: LogRecord[] = [];
      const consumer = await log.consume({
        group: 'projector',
        topics: [TOPICS.events],
        onBatch: async (batch) => {
          if (failures === 0) {
            failures += 1;
            throw new Error('projection failed');
          }
          seen.push(...batch);
        },
      });
      await eventually(() => new Set(seen.map(numberOf)).size >= 10, 60_000);
      await consumer.stop();
      expect(failures).toBe(1);
      expect(new Set(seen.map(numberOf)).size).toBe(10);
    });

    it("starts a partition where `start` answers, behind the group's position, delivering its records again", async () => {
      const log = await fresh();
      const [sent] = await appendNumbered(log, 100, 1);
      const partition = sent?.partition;
      await consumeUntil(log, 100);

      const asked: string[] = [];
      const secondRun = await consumeUntil(log, 60, {
        start: async (topic, p) => {
          asked.push(`${topic}:${p}`);
          return p === partition ? '40' : undefined;
        },
      });
      expect(asked).toContain(`${TOPICS.events}:${partition}`);
      expect(secondRun.map((r) => Number(r.offset))).toEqual(Array.from({ length: 60 }, (_, i) => 40 + i));
    });

    it("resumes at the group's position where `start` answers undefined", async () => {
      const log = await fresh();
      const [sent] = await appendNumbered(log, 100, 1);
      await consumeUntil(log, 100);

      await appendNumbered(log, 20, 1, 100);
      const asked: string[] = [];
      const secondRun = await consumeUntil(log, 20, { start: async (topic, p) => void asked.push(`${topic}:${p}`) });
      expect(asked).toContain(`${TOPICS.events}:${sent?.partition}`);
      expect(secondRun.map(numberOf)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
    });

    it('asks `start` again for the partitions a consumer is given when another consumer of the group leaves', async () => {
      const log = await fresh();
      const every = Array.from({ length: PARTITIONS[TOPICS.events] }, (_, p) => `${TOPICS.events}:${p}`);
      const askedA: string[] = [];
      const askedB: string[] = [];
      const asking = (asked: string[]) => async (topic: string, p: number) => void asked.push(`${topic}:${p}`);
      const b = await log.consume({ group: 'projector', topics: [TOPICS.events], onBatch: async () => undefined, start: asking(askedB) });
      await eventually(() => every.every((slot) => askedB.includes(slot)), 60_000);
      const a = await log.consume({ group: 'projector', topics: [TOPICS.events], onBatch: async () => undefined, start: asking(askedA) });

      askedA.splice(0);
      await b.stop();
      await eventually(() => every.every((slot) => askedA.includes(slot)), 60_000);
      await a.stop();
    });

    it('reads a partition again from the offset a batch answers with ReadAgain, while it runs', async () => {
      const log = await fresh();
      await appendNumbered(log, 100, 1);
      const seen: LogRecord[] = [];
      let cut: number | undefined;
      const running = await log.consume({
        group: 'projector',
        topics: [TOPICS.events],
        onBatch: async (batch) => {
          seen.push(...batch);
          if (cut !== undefined || seen.length < 50) return undefined;
          cut = seen.length;
          return { readFrom: '30' };
        },
      });
      await eventually(() => cut !== undefined && seen.length > cut && seen[seen.length - 1]?.offset === '99', 60_000);
      await running.stop();
      expect(seen.slice(cut).map((r) => Number(r.offset))).toEqual(Array.from({ length: 70 }, (_, i) => 30 + i));
    });

    it('commits nothing of a batch answered with ReadAgain', async () => {
      const log = await fresh();
      await appendNumbered(log, 100, 1);
      let answered = 0;
      // Forward to the end, so nothing is read again: only the group's position says whether the batch was committed.
      const running = await log.consume({
        group: 'projector',
        topics: [TOPICS.events],
        onBatch: async () => {
          answered += 1;
          return { readFrom: '100' };
        },
      });
      await eventually(() => answered > 0, 60_000);
      await running.stop();
      expect((await consumeUntil(log, 100)).map(numberOf)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    });

    it('replays everything from the earliest position, and only the records from a point in time', async () => {
      const log = await fresh();
      await appendNumbered(log, 500, 5);
      await new Promise((r) => setTimeout(r, 50));
      const cut = new Date();
      await new Promise((r) => setTimeout(r, 50));
      await appendNumbered(log, 300, 5, 500);

      const all: LogRecord[] = [];
      const everything = await log.replay({ topics: [TOPICS.events], from: 'earliest', onBatch: async (b) => void all.push(...b) });
      expect(everything.records).toBe(800);
      expect(new Set(all.map(numberOf)).size).toBe(800);

      const later: LogRecord[] = [];
      const sinceCut = await log.replay({ topics: [TOPICS.events], from: cut, onBatch: async (b) => void later.push(...b) });
      expect(sinceCut.records).toBe(300);
      expect(Math.min(...later.map(numberOf))).toBe(500);
    });

    it('replays an empty log at once', async () => {
      const log = await fresh();
      expect(await log.replay({ topics: [TOPICS.deadLetters], from: 'earliest', onBatch: async () => undefined })).toEqual({ records: 0 });
    });

    it('fans every new record out to every live subscriber, and resumes a subscriber after a position', async () => {
      const log = await fresh();
      await appendNumbered(log, 5, 1);
      const a: LogRecord[] = [];
      const b: LogRecord[] = [];
      const subA = await log.subscribe({ topics: [TOPICS.events], from: 'latest', onRecord: (r) => void a.push(r) });
      const subB = await log.subscribe({ topics: [TOPICS.events], from: 'latest', onRecord: (r) => void b.push(r) });
      const positions = await appendNumbered(log, 20, 1, 5);
      await eventually(() => a.length >= 20 && b.length >= 20, 30_000);
      expect(a.map(numberOf)).toEqual(b.map(numberOf));
      expect(Math.min(...a.map(numberOf))).toBe(5);
      await Promise.all([subA.stop(), subB.stop()]);

      const after = positions[9];
      if (!after) throw new Error('no position');
      const resumed: LogRecord[] = [];
      const subC = await log.subscribe({ topics: [TOPICS.events], from: [after], onRecord: (r) => void resumed.push(r) });
      await eventually(() => resumed.length >= 10, 30_000);
      await subC.stop();
      expect(resumed.map(numberOf)).toEqual([15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    });

    it('reports the end of each partition', async () => {
      const log = await fresh();
      await appendNumbered(log, 30, 3);
      const ends = await log.ends(TOPICS.events);
      expect(ends.reduce((sum, e) => sum + Number(e.end), 0)).toBe(30);
      expect(await log.ping()).toBe(true);
    });
  });
}
