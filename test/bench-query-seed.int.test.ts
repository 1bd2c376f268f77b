import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, openDatabase, sql, type ConnectionPool, type SQLQuery } from '@earshot/db';
import type { EventLog } from '@earshot/log';
import { PROJECTOR_MIGRATIONS, startProjector } from '@earshot/projector';
import { foldTenant, READ_MODELS } from '@earshot/read-models';
import { QUERY_MIGRATIONS } from '@earshot/query';
import { copyFolds, copyTenant, dropIndexes, templateOf, tenantEvents } from '../bench/query-seed';
import { appendEvents, waitUntilCaughtUp, createTestDatabase, openTestDatabase, kafkaLog } from '@earshot/testing';

const DAY = 86_400_000;

/**
 * A table's rows as readers see them, a sharded counter's shards added up: the projector writes a minute or a day in a
 * shard per log partition, which the seed, knowing no partitions, writes as one.
 */
const READ_AS: Record<string, SQLQuery> = {
  metric_rollups: sql`(
    select tenant_id, metric, minute, agent_id, sum(count) as count, sum(sum) as sum, min(min) as min, max(max) as max, earshot_sketch_union(sketch) as sketch
    from metric_rollups group by tenant_id, metric, minute, agent_id)`,
  usage_meters: sql`(
    select tenant_id, day, sum(events_ingested) as events_ingested, sum(calls) as calls, sum(call_ms) as call_ms, sum(api_requests) as api_requests,
      sum(stored_bytes) as stored_bytes
    from usage_meters group by tenant_id, day)`,
};

/**
 * Every row of a table as JSON text, in one order. Left out: `revision`,
 * which counts the projector's writes of a row (it depends on batching), and
 * the ids of noted changes (a sequence).
 */
async function rowsOf(db: ConnectionPool, table: string): Promise<string[]> {
  const rows: { row: string }[] = await db.query(
    sql`select (to_jsonb(t) - 'revision' - 'id')::text as row from ${READ_AS[table] ?? sql.ident(table)} t order by 1`,
  );
  return rows.map((r) => r.row);
}

/** The folder's tables besides the read models. */
const FOLD_TABLES = ['metric_rollup_folds', 'metric_rollup_folded', 'metric_rollup_changes'];

describe("bench/query's bulk seed", () => {
  let projected: { db: ConnectionPool; close: () => Promise<void> };
  let bulk: { url: string; drop: () => Promise<void> };
  let bulkDb: ConnectionPool;
  let log: EventLog;

  beforeAll(async () => {
    projected = await openTestDatabase('seed_projected');
    bulk = await createTestDatabase('seed_bulk');
    bulkDb = openDatabase({ url: bulk.url, poolSize: 2, applicationName: 'test-seed-bulk' });
    await migrate(projected.db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS, ...QUERY_MIGRATIONS]);
    await migrate(bulkDb, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS, ...QUERY_MIGRATIONS]);
    log = await kafkaLog('seed');
  });
  afterAll(async () => {
    await log.close();
    await projected.close();
    await bulkDb.dispose();
    await bulk.drop();
  });

  it("writes, table by table, the rows the real projector and the query service's folder write from the same events", async () => {
    const tenants = [randomUUID(), randomUUID(), randomUUID()];
    const endMs = Date.parse('2026-11-01T00:00:00.000Z');
    const count = 40;

    await appendEvents(
      log,
      tenants.flatMap((tenant) => tenantEvents(tenant, count, endMs, 3 * DAY)),
    );
    const projector = await startProjector({ db: projected.db, log });
    await waitUntilCaughtUp(projected.db, log);
    await projector.stop();
    // Folded in the middle of the last hour of calls: that hour stays open, noted and unfolded, both ways.
    const now = new Date(endMs - 90 * 60_000);
    for (const tenant of tenants) await foldTenant(projected.db, tenant, now);

    const client = new pg.Client({ connectionString: bulk.url });
    await client.connect();
    try {
      const rebuild = await dropIndexes(client, ['calls', 'turns', 'metric_rollups', 'usage_meters']);
      const [first = '', ...others] = tenants;
      const template = await templateOf(client, first, tenantEvents(first, count, endMs, 3 * DAY));
      await copyTenant(client, template, first);
      await foldTenant(bulkDb, first, now);
      for (const tenant of others) {
        await copyTenant(client, template, tenant);
        await copyFolds(client, first, tenant, new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000));
      }
      for (const statement of rebuild) await client.query(statement);
    } finally {
      await client.end();
    }

    for (const table of [...READ_MODELS.map((m) => m.table), ...FOLD_TABLES]) {
      const expected = await rowsOf(projected.db, table);
      expect(await rowsOf(bulkDb, table), table).toEqual(expected);
    }
    expect((await rowsOf(bulkDb, 'calls')).length).toBe(tenants.length * count);
    expect((await rowsOf(bulkDb, 'metric_rollup_folded')).length).toBeGreaterThan(tenants.length * 24);
    expect((await rowsOf(bulkDb, 'metric_rollup_changes')).length).toBe(tenants.length);
  });
});
