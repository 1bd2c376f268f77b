import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallDetailSchema, CallResourceSchema, type CallListQuery } from '@earshot/contracts';
import { inTenant, sql, TENANT_SETTING, type ConnectionPool } from '@earshot/db';
import { pagingOf } from '@earshot/server';
import { callScript, logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { callResults, deleteCallsStartedBefore, renderedCallDetail, renderedCalls, silentCalls } from './calls.queries';

const tenant = randomUUID();
const START = Date.parse('2026-01-08T09:00:00.000Z');
const ENDINGS = ['completed', 'failed', 'transferred', 'unanswered', 'silent', 'completed'] as const;
const page = (query: Partial<CallListQuery>, limit = 10) => {
  const full: CallListQuery = { sort: '-startedAt', limit, ...query };
  return { full, paging: pagingOf(full, { value: 'time', id: 'uuid' }) };
};

describe('the calls read model’s queries', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;

  beforeAll(async () => {
    // The query service's migrations hold the composite types the statements render latency with.
    store = await readModelStore('call_queries');
    db = store.db;
    const events = ENDINGS.flatMap((ending, i) =>
      callScript({ tenant, providerCallId: `call-${i}`, agentId: i % 2 === 0 ? 'agent_a' : 'agent_b', turns: 2, ending, startMs: START + i * 600_000 }),
    );
    const other = callScript({ tenant: randomUUID(), providerCallId: 'elsewhere', turns: 1, startMs: START });
    await store.apply(logRecords([...events, ...other], 0n));
  });
  afterAll(() => store?.close());

  it('renders a page of the tenant’s calls newest first, filtered, as the API’s Call', async () => {
    const { full, paging } = page({});
    const calls = (await inTenant(db, tenant, (tx) => renderedCalls(tx, full, paging))).map((text) => CallResourceSchema.parse(JSON.parse(text)));
    expect(calls.map((c) => c.providerCallId)).toEqual(['call-5', 'call-4', 'call-3', 'call-2', 'call-1', 'call-0']);
    const filtered = page({ agentId: 'agent_b', status: 'completed' });
    const onlyB = await inTenant(db, tenant, (tx) => renderedCalls(tx, filtered.full, filtered.paging));
    expect(onlyB.map((text) => CallResourceSchema.parse(JSON.parse(text)).providerCallId)).toEqual(['call-5']);
  });

  it('renders one call with its turns, transcript and traces; none for an id the tenant does not have', async () => {
    const { full, paging } = page({}, 1);
    const [first] = await inTenant(db, tenant, (tx) => renderedCalls(tx, full, paging));
    const id = CallResourceSchema.parse(JSON.parse(first ?? '{}')).id;
    const detail = CallDetailSchema.shape.call.parse(JSON.parse((await inTenant(db, tenant, (tx) => renderedCallDetail(tx, id))) ?? 'null'));
    expect(detail.turns).toHaveLength(2);
    expect(detail.transcript.length).toBeGreaterThan(0);
    expect(await inTenant(db, tenant, (tx) => renderedCallDetail(tx, randomUUID()))).toBeNull();
  });

  it('gives each of an agent’s calls in a window its status and quality', async () => {
    const results = await inTenant(db, tenant, (tx) => callResults(tx, 'agent_a', { from: new Date(START), to: new Date(START + 30 * 60_000) }));
    expect(results.map((r) => r.status).sort()).toEqual(['completed', 'escalated']);
  });

  it('finds the calls in progress gone silent before a cut-off', async () => {
    const silent = await inTenant(db, tenant, (tx) => silentCalls(tx, new Date(START + 3_600_000), 10));
    expect(silent.map((c) => c.provider_call_id)).toEqual(['call-4']);
    expect(await inTenant(db, tenant, (tx) => silentCalls(tx, new Date(START), 10))).toEqual([]);
  });

  it('deletes the calls started before a cut-off with their turns, transcripts and traces', async () => {
    const before = new Date(START + 15 * 60_000);
    // Retention runs as the owner with the tenant set, as the lifecycle service does.
    const deleted = await db.tx(async (tx) => {
      await tx.query(sql`select set_config(${TENANT_SETTING}, ${tenant}, true)`);
      return deleteCallsStartedBefore(tx, tenant, before);
    });
    expect(deleted).toBe(2);
    const left = await inTenant(db, tenant, (tx) =>
      tx.query(sql`select (select count(*) from calls)::int as calls,
        (select count(*) from turns t where not exists (select 1 from calls c where c.id = t.call_id))::int as orphans`),
    );
    expect(left).toEqual([{ calls: 4, orphans: 0 }]);
  });
});
