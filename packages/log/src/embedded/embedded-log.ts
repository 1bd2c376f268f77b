import { randomUUID } from 'node:crypto';
import { sql, type ConnectionPool } from '@earshot/db';
import { fallbackLogger, type Logger } from '@earshot/telemetry';
import { MAX_QUEUED_RECORDS, type EventLog, type LogPosition, type LogRecord, type OutgoingRecord, type PartitionEnd, type Running } from '../event-log';
import { ALL_TOPICS, PARTITIONS, type TopicName } from '../topics';
import { GroupCommit } from '@earshot/group-commit';
import { keyPartitioner } from '../partitioner';
import { APPEND_CHANNEL, Wakeup } from './wakeup';
import { PartitionReader, type StoredRow } from './partition-reader';
import type { TopicRetention } from '../kafka/topic-retention';
import { startTrimming } from './retention-trim';
import { PartitionStarts } from './partition-starts';

export interface EmbeddedLogOptions {
  db: ConnectionPool;
  /** The same database, for the LISTEN connection that wakes readers. */
  url: string;
  namespace?: string;
  /** Where a reader's failures are reported (it retries). */
  logger?: Logger;
  /** How long each topic keeps records, as Kafka's retention.ms: older ones are deleted at start and every few minutes. */
  retention?: TopicRetention;
}

/** Idle readers look again this often even without a notification. */
const IDLE_POLL_MS = 500;
const LEASE_SECONDS = 10;
const FETCH_LIMIT = 1_000;

/**
 * The EventLog kept in PostgreSQL (schema `earshot_log`): the same topics,
 * partitions (by the same key hash), offsets, committed positions, replay
 * and fan-out as the Kafka adapter, with no broker to run.
 */
export async function createEmbeddedLog({ db, url, namespace = '', logger = fallbackLogger(), retention = {} }: EmbeddedLogOptions): Promise<EventLog> {
  const physical = (topic: TopicName) => `${namespace}${topic}`;
  const partitionOf = keyPartitioner();
  await db.query(
    sql.join(
      ALL_TOPICS.flatMap((topic) =>
        Array.from(
          { length: PARTITIONS[topic] },
          (_, p) => sql`insert into earshot_log.partitions (topic, partition) values (${physical(topic)}, ${p}) on conflict do nothing;`,
        ),
      ),
      sql` `,
    ),
  );
  const wakeup = await Wakeup.listen(url);
  const trimming = startTrimming(db, physical, retention, logger);
  const reader = new PartitionReader(db, physical);
  const running = new Set<Running>();
  let closed = false;

  const batcher = new GroupCommit<OutgoingRecord, LogPosition>(
    async (records) => {
      const placed = records.map((record) => ({ record, partition: partitionOf(physical(record.topic), record.key, PARTITIONS[record.topic]) }));
      const slots = [...new Set(placed.map((p) => `${p.record.topic}\u0000${p.partition}`))].sort();
      return db.tx(async (tx) => {
        const positions = new Map<OutgoingRecord, LogPosition>();
        // Slots are locked in one order, so concurrent appenders cannot deadlock.
        for (const slot of slots) {
          const [topicName, partitionText] = slot.split('\u0000') as [TopicName, string];
          const partition = Number(partitionText);
          const mine = placed.filter((p) => p.record.topic === topicName && p.partition === partition);
          const [head] = (await tx.query(sql`
          update earshot_log.partitions set next_offset = next_offset + ${mine.length}
          where topic = ${physical(topicName)} and partition = ${partition}
          returning next_offset - ${mine.length} as base`)) as { base: number }[];
          const base = BigInt(head?.base ?? 0);
          const offsets = mine.map((_, i) => (base + BigInt(i)).toString());
          await tx.query(sql`
          insert into earshot_log.records (topic, partition, "offset", key, value, headers)
          select ${physical(topicName)}, ${partition}, o::bigint, k, v, h::jsonb
          from unnest(${offsets}::text[], ${mine.map((m) => m.record.key)}::text[], ${mine.map((m) => m.record.value)}::bytea[], ${mine.map((m) => JSON.stringify(m.record.headers ?? {}))}::text[]) as r(o, k, v, h)`);
          mine.forEach((m, i) => positions.set(m.record, { topic: topicName, partition, offset: offsets[i] ?? '0' }));
        }
        await tx.query(sql`select pg_notify(${APPEND_CHANNEL}, '')`);
        return records.map((r) => positions.get(r) as LogPosition);
      });
    },
    { maxItems: 5_000, maxQueued: MAX_QUEUED_RECORDS },
  );

  /** A loop that runs until stopped; `step` answers whether it found work (else it waits for an append). */
  const loop = (step: () => Promise<boolean>, onError: (error: unknown) => void): Running => {
    let stopping = false;
    const done = (async () => {
      while (!stopping && !closed) {
        let busy = false;
        try {
          busy = await step();
        } catch (error) {
          onError(error);
          await new Promise((r) => setTimeout(r, 1_000));
        }
        if (!busy && !stopping) await wakeup.wait(IDLE_POLL_MS);
      }
    })();
    const handle: Running = {
      stop: async () => {
        stopping = true;
        wakeup.wakeAll();
        await done;
        running.delete(handle);
      },
    };
    running.add(handle);
    return handle;
  };

  return {
    append: (records) => (records.length === 0 ? Promise.resolve([]) : batcher.add(records)),

    async consume({ group, topics, onBatch, start }) {
      const owner = randomUUID();
      const consumerGroup = `${namespace}${group}`;
      const starts = new PartitionStarts(start);
      const handle = loop(
        async () => {
          let busy = false;
          const leased = await reader.lease(consumerGroup, topics, owner, LEASE_SECONDS);
          await starts.assigned(leased);
          for (const slot of leased) {
            const from = starts.next(slot) ?? (await reader.committed(consumerGroup, slot));
            const rows = await reader.fetch(slot, from, FETCH_LIMIT);
            if (rows.length === 0) continue;
            const answer = await onBatch(rows.map((row) => toRecord(slot.topic, row)));
            busy = true;
            if (answer) {
              starts.readAgain(slot, BigInt(answer.readFrom));
              continue;
            }
            const last = rows[rows.length - 1] as StoredRow;
            await reader.commit(consumerGroup, slot, BigInt(last.offset) + 1n);
            starts.committed(slot);
          }
          return busy;
        },
        (error) => logger.error({ err: error, group }, 'log consumer failed; retrying'),
      );
      return {
        stop: async () => {
          await handle.stop();
          await reader.release(consumerGroup, owner);
        },
      };
    },

    async replay({ topics, from, onBatch }) {
      let records = 0;
      for (const topic of topics) {
        for (const end of await reader.ends(topic)) {
          const slot = { topic, partition: end.partition };
          let next = from === 'earliest' ? 0n : await reader.firstAt(slot, from);
          while (next < BigInt(end.end)) {
            const rows = (await reader.fetch(slot, next, FETCH_LIMIT)).filter((r) => BigInt(r.offset) < BigInt(end.end));
            if (rows.length === 0) break;
            await onBatch(rows.map((row) => toRecord(topic, row)));
            records += rows.length;
            next = BigInt((rows[rows.length - 1] as StoredRow).offset) + 1n;
          }
        }
      }
      return { records };
    },

    async subscribe({ topics, from, onRecord }) {
      const next = new Map<string, { topic: TopicName; partition: number; offset: bigint }>();
      for (const topic of topics)
        for (const end of await reader.ends(topic)) next.set(`${topic}:${end.partition}`, { topic, partition: end.partition, offset: BigInt(end.end) });
      if (from !== 'latest')
        for (const p of from) next.set(`${p.topic}:${p.partition}`, { topic: p.topic, partition: p.partition, offset: BigInt(p.offset) + 1n });
      return loop(
        async () => {
          let busy = false;
          for (const slot of next.values()) {
            const rows = await reader.fetch(slot, slot.offset, FETCH_LIMIT);
            for (const row of rows) onRecord(toRecord(slot.topic, row));
            if (rows.length > 0) {
              slot.offset = BigInt((rows[rows.length - 1] as StoredRow).offset) + 1n;
              busy = true;
            }
          }
          return busy;
        },
        (error) => logger.error({ err: error }, 'log subscriber failed; retrying'),
      );
    },

    ends: (topic): Promise<PartitionEnd[]> => reader.ends(topic),

    async ping() {
      try {
        await db.query(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      await Promise.all([...running].map((r) => r.stop()));
      closed = true;
      await trimming.stop();
      await batcher.settled();
      await wakeup.close();
    },
  };
}

function toRecord(topic: TopicName, row: StoredRow): LogRecord {
  return {
    topic,
    partition: row.partition,
    offset: String(row.offset),
    key: row.key,
    value: row.value,
    headers: row.headers,
    timestamp: row.stored_at.getTime(),
  };
}
