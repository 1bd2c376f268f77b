import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type ConnectionPool } from '@earshot/db';
import { TOPICS, type EventLog } from '@earshot/log';
import { kafkaLog, openTestDatabase } from '@earshot/testing';
import { lagFromPositions } from './consumer-lag';

/** A consumer's lag is the log's end of each partition less the position its consumer stored with its effects. */
describe('lagFromPositions', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  let log: EventLog;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('consumer-lag'));
    await db.query(sql`create table audit_positions (topic text, partition int, next_offset bigint, primary key (topic, partition))`);
    log = await kafkaLog('consumer-lag');
  });

  afterAll(async () => {
    await log?.close();
    await close?.();
  });

  it('counts what is appended and not yet stored, per partition', async () => {
    const lag = lagFromPositions(db, log, 'audit_positions', [TOPICS.deliveries]);
    const partitions = await log.ends(TOPICS.deliveries);
    expect((await lag()).map(({ lag: behind }) => behind)).toEqual(partitions.map(() => 0));

    const [written] = await log.append([1, 2, 3].map((n) => ({ topic: TOPICS.deliveries, key: 'one-key', value: Buffer.from(`record ${n}`), headers: {} })));
    const partition = written?.partition;
    const behind = async () => (await lag()).filter((p) => p.lag > 0);
    expect(await behind()).toEqual([{ topic: TOPICS.deliveries, partition, lag: 3 }]);

    await db.query(sql`insert into audit_positions values (${TOPICS.deliveries}, ${partition}, 2)`);
    expect(await behind()).toEqual([{ topic: TOPICS.deliveries, partition, lag: 1 }]);
    await db.query(sql`update audit_positions set next_offset = 3`);
    expect(await behind()).toEqual([]);
  });
});
