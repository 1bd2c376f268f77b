import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, sql, type ConnectionPool } from '@earshot/db';
import { openTestDatabase } from '@earshot/testing';
import { PROJECTOR_MIGRATIONS } from './migration-sets';

describe('the projector’s migrations', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  const latencyJson = async (db: ConnectionPool) =>
    (
      (await db.query(sql`select to_json(row(1, 2, 3, 6)::latency_breakdown) as latency, to_json(row(1, 2, 3, 4, 9, 1)::turn_breakdown) as turn`)) as {
        latency: unknown;
        turn: unknown;
      }[]
    )[0];

  it('create the API’s latency shapes, which to_json writes under the API’s field names', async () => {
    const opened = await openTestDatabase('projector_migrations_fresh');
    close = opened.close;
    await migrate(opened.db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    expect(await latencyJson(opened.db)).toEqual({
      latency: { asrMs: 1, llmMs: 2, ttsMs: 3, totalMs: 6 },
      turn: { eouMs: 1, sttMs: 2, llmTtftMs: 3, ttsTtfbMs: 4, e2eMs: 9, unattributedMs: 1 },
    });
  });

  it('apply on a database where the query service’s former migrations made those shapes already', async () => {
    const opened = await openTestDatabase('projector_migrations_upgraded');
    close = opened.close;
    await opened.db.query(sql`create type latency_breakdown as ("asrMs" integer, "llmMs" integer, "ttsMs" integer, "totalMs" integer)`);
    await opened.db.query(
      sql`create type turn_breakdown as ("eouMs" integer, "sttMs" integer, "llmTtftMs" integer, "ttsTtfbMs" integer, "e2eMs" integer, "unattributedMs" integer)`,
    );
    await migrate(opened.db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    expect((await latencyJson(opened.db))?.latency).toEqual({ asrMs: 1, llmMs: 2, ttsMs: 3, totalMs: 6 });
  });
});
