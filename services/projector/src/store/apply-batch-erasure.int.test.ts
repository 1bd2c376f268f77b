import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MIGRATIONS, createTenant, DataKeys, SecretBox } from '@earshot/auth';
import { DATABASE_MIGRATIONS, inTenant, migrate, ownerInTenant, sql, type ConnectionPool } from '@earshot/db';
import { callIdOf } from '@earshot/events';
import type { EventLog, LogRecord } from '@earshot/log';
import { deleteCallRows } from '@earshot/read-models';
import { callScript, kafkaLog, openTestDatabase } from '@earshot/testing';
import { eventsTopic } from '@earshot/topics';
import { createBatchApplier } from './apply-batch';
import { PROJECTOR_MIGRATIONS } from './migration-sets';

/**
 * A call erased while a batch of its events is between its lookups (the
 * call's key, or when the call was erased, for events in the clear) and its
 * commit: the erasure deletes the rows, and the batch must not write them back
 * with what it opened before.
 */
describe('a batch whose call is erased as it is applied', () => {
  let db: ConnectionPool;
  let log: EventLog;
  let close: () => Promise<void>;
  const master = new SecretBox(randomBytes(32));
  let dataKeys: DataKeys;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('apply_batch_erasure'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('apply-batch-erasure');
    dataKeys = new DataKeys(db, master);
  });
  afterAll(async () => {
    await log.close();
    await close();
  });

  /** A call's events as the gateway appends them (sealed with the call's key, or in the clear), on a partition of their own. */
  async function callRecords(tenant: string, partition: number, sealed = true): Promise<{ callId: string; records: LogRecord[] }> {
    const events = callScript({ tenant, providerCallId: 'call-erased', turns: 2, ending: 'completed' });
    const callId = callIdOf(tenant, events[0]?.provider ?? '', 'call-erased');
    const key = sealed ? (await dataKeys.forCalls(tenant, [callId])).get(callId) : undefined;
    const records = events.map((event, i) => {
      const record = eventsTopic.record(event, { recordId: callId, ...(key ? { sealWith: key } : {}) });
      return { ...record, partition, offset: String(i), headers: record.headers ?? {}, timestamp: Date.parse(event.received_at) };
    });
    return { callId, records };
  }
  const erase = (tenant: string, callId: string) =>
    ownerInTenant(db, tenant, async (tx) => {
      await dataKeys.eraseCall(tenant, callId, tx);
      await deleteCallRows(tx, tenant, callId);
    });
  const callRows = async (tenant: string, callId: string) =>
    ((await inTenant(db, tenant, (tx) => tx.query(sql`select count(*)::int as count from calls where id = ${callId}`))) as { count: number }[])[0]?.count;

  it('opens the batch again without the destroyed key, writing none of the call’s rows', async () => {
    const tenant = (await createTenant(db, master, { name: 'Erased between lookup and commit' })).tenant.id;
    const { callId, records } = await callRecords(tenant, 0);
    let lookups = 0;
    const apply = createBatchApplier({
      db,
      log,
      holdKeys: (tx, ids) => DataKeys.hold(tx, ids),
      // The erasure commits right after the batch's first lookup, before its transaction.
      keys: async (ids) => {
        const lookup = await dataKeys.lookup(ids);
        if (++lookups === 1) await erase(tenant, callId);
        return lookup;
      },
    });
    const outcome = await apply(records);
    expect({ lookups, applied: outcome.applied, erased: outcome.erased, rows: await callRows(tenant, callId) }).toEqual({
      lookups: 2,
      applied: 0,
      erased: records.length,
      rows: 0,
    });
  });

  it('makes an erasure that comes during the transaction wait for it, then delete what it wrote', async () => {
    const tenant = (await createTenant(db, master, { name: 'Erased during the commit' })).tenant.id;
    const { callId, records } = await callRecords(tenant, 1);
    let erasing: Promise<void> | undefined;
    const apply = createBatchApplier({
      db,
      log,
      // The erasure starts once the batch holds its key, and must wait for the batch's commit.
      holdKeys: async (tx, ids) => {
        const held = await DataKeys.hold(tx, ids);
        erasing ??= erase(tenant, callId);
        return held;
      },
      keys: (ids) => dataKeys.lookup(ids),
    });
    const outcome = await apply(records);
    await erasing;
    expect({ applied: outcome.applied, rows: await callRows(tenant, callId) }).toEqual({ applied: records.length, rows: 0 });
  });

  it('in the clear: opens the batch again once it finds the call erased since it asked, writing none of its rows', async () => {
    const tenant = (await createTenant(db, master, { name: 'Erased in the clear between lookup and commit' })).tenant.id;
    const { callId, records } = await callRecords(tenant, 2, false);
    let asked = 0;
    const apply = createBatchApplier({
      db,
      log,
      holdErasures: (tx, calls) => DataKeys.holdErasures(tx, calls),
      // Erased as the batch learns the call was not: the answer it opens the batch with is already stale.
      erasedCalls: async (calls) => {
        const erasedAt = await dataKeys.erasedCalls(calls);
        if (++asked === 1) await erase(tenant, callId);
        return erasedAt;
      },
    });
    const outcome = await apply(records);
    expect({ asked, applied: outcome.applied, erased: outcome.erased, rows: await callRows(tenant, callId) }).toEqual({
      asked: 2,
      applied: 0,
      erased: records.length,
      rows: 0,
    });
  });

  it('in the clear: makes an erasure that comes during the transaction wait for it, then delete what it wrote', async () => {
    const tenant = (await createTenant(db, master, { name: 'Erased in the clear during the commit' })).tenant.id;
    const { callId, records } = await callRecords(tenant, 3, false);
    let erasing: Promise<void> | undefined;
    const apply = createBatchApplier({
      db,
      log,
      holdErasures: async (tx, calls) => {
        const erasedAt = await DataKeys.holdErasures(tx, calls);
        erasing ??= erase(tenant, callId);
        return erasedAt;
      },
      erasedCalls: (calls) => dataKeys.erasedCalls(calls),
    });
    const outcome = await apply(records);
    await erasing;
    expect({ applied: outcome.applied, rows: await callRows(tenant, callId) }).toEqual({ applied: records.length, rows: 0 });
  });
});
