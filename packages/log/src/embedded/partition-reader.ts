import { sql, type ConnectionPool } from '@earshot/db';
import type { PartitionEnd } from '../event-log';
import type { TopicName } from '../topics';

export interface Slot {
  topic: TopicName;
  partition: number;
}

export interface StoredRow {
  partition: number;
  offset: string;
  key: string;
  value: Buffer;
  headers: Record<string, string>;
  stored_at: Date;
}

/** The SQL the embedded log reads with: fetches, ends, group positions and leases. */
export class PartitionReader {
  constructor(
    private readonly db: ConnectionPool,
    private readonly physical: (topic: TopicName) => string,
  ) {}

  async fetch(slot: Slot, from: bigint, limit: number): Promise<StoredRow[]> {
    return (await this.db.query(sql`
      select r.partition, r."offset"::text as "offset", r.key, r.value, r.headers, r.stored_at from earshot_log.records r
      where r.topic = ${this.physical(slot.topic)} and r.partition = ${slot.partition} and r."offset" >= ${from.toString()}::bigint
      -- By the bigint column: the output column of the same name is text.
      order by r."offset" limit ${limit}`)) as StoredRow[];
  }

  async ends(topic: TopicName): Promise<PartitionEnd[]> {
    const rows = (await this.db.query(sql`
      select partition, next_offset::text as end from earshot_log.partitions where topic = ${this.physical(topic)} order by partition`)) as {
      partition: number;
      end: string;
    }[];
    return rows.map((r) => ({ topic, partition: r.partition, end: r.end }));
  }

  /** The first offset stored at or after a time (the end if there is none). */
  async firstAt(slot: Slot, time: Date): Promise<bigint> {
    const [row] = (await this.db.query(sql`
      select coalesce(
        (select min("offset") from earshot_log.records where topic = ${this.physical(slot.topic)} and partition = ${slot.partition} and stored_at >= ${time}),
        (select next_offset from earshot_log.partitions where topic = ${this.physical(slot.topic)} and partition = ${slot.partition})
      )::text as first`)) as { first: string }[];
    return BigInt(row?.first ?? '0');
  }

  async committed(group: string, slot: Slot): Promise<bigint> {
    const [row] = (await this.db.query(sql`
      select next_offset::text as next from earshot_log.committed
      where consumer_group = ${group} and topic = ${this.physical(slot.topic)} and partition = ${slot.partition}`)) as { next: string }[];
    return row ? BigInt(row.next) : 0n;
  }

  async commit(group: string, slot: Slot, next: bigint): Promise<void> {
    await this.db.query(sql`
      insert into earshot_log.committed (consumer_group, topic, partition, next_offset)
      values (${group}, ${this.physical(slot.topic)}, ${slot.partition}, ${next.toString()}::bigint)
      on conflict (consumer_group, topic, partition) do update set next_offset = excluded.next_offset`);
  }

  /** Takes or renews the leases this owner can have; answers the partitions it owns now. */
  async lease(group: string, topics: readonly TopicName[], owner: string, seconds: number): Promise<Slot[]> {
    const names = topics.map(this.physical);
    const rows = (await this.db.query(sql`
      insert into earshot_log.leases (consumer_group, topic, partition, owner, expires_at)
      select ${group}, topic, partition, ${owner}, now() + make_interval(secs => ${seconds})
      from earshot_log.partitions where topic = any(${names}::text[])
      on conflict (consumer_group, topic, partition) do update
        set owner = excluded.owner, expires_at = excluded.expires_at
        where earshot_log.leases.owner = excluded.owner or earshot_log.leases.expires_at < now()
      returning topic, partition`)) as { topic: string; partition: number }[];
    return rows
      .map((r) => ({ topic: topics[names.indexOf(r.topic)] as TopicName, partition: r.partition }))
      .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  }

  async release(group: string, owner: string): Promise<void> {
    await this.db.query(sql`delete from earshot_log.leases where consumer_group = ${group} and owner = ${owner}`);
  }
}
