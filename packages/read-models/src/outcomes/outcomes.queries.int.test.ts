import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventData } from '@earshot/contracts';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { pageOf, pagingOf, type Paging } from '@earshot/server';
import { logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { outcomeCountsAround, outcomeRows, type OutcomeRow } from './outcomes.queries';

const tenant = randomUUID();
const KINDS = { value: 'time', id: 'text' } as const;
const at = (hour: number, minute = 0) => `2026-01-08T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;
const recorded = (id: string, occurredAt: string, data: Partial<EventData<'outcome.recorded'>>, key = id) =>
  sampleEvent('outcome.recorded', { tenant, idempotency_key: key, occurred_at: occurredAt, data: { outcome_id: id, ...data } });

describe('the outcomes read model’s queries', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;
  const rows = (paging: Paging, callId?: string) => inTenant(db, tenant, (tx) => outcomeRows(tx, { callId }, paging));
  // The cursor GET /outcomes hands out after a page.
  const cursorAfter = (page: OutcomeRow[], paging: Paging) =>
    pageOf(
      page,
      paging,
      (r) => ({ v: r.recorded_at.toISOString(), id: r.id }),
      (r) => r.id,
    ).nextCursor ?? undefined;

  beforeAll(async () => {
    store = await readModelStore('outcome_queries');
    db = store.db;
    const events = [
      recorded('out_1', at(9), { call_id: 'call-1', agent: 'agent_a', outcome_type: 'converted', revenue_usd: 120 }),
      recorded('out_2', at(10), { call_id: 'call-2', agent: 'agent_a', outcome_type: 'escalated' }),
      // Recorded at the same instant as out_2: the id breaks the tie, ascending.
      recorded('out_3', at(10), { call_id: 'call-1', agent: 'agent_a', outcome_type: 'converted', revenue_usd: 80 }),
      recorded('out_4', at(11), { call_id: 'call-3', agent: 'agent_b', outcome_type: 'converted' }),
      // out_5 recorded again later: the upsert replaces its type, value and time.
      recorded('out_5', at(8), { call_id: 'call-4', agent: 'agent_a', outcome_type: 'escalated', value: 'first guess' }),
      recorded('out_5', at(12), { call_id: 'call-4', agent: 'agent_a', outcome_type: 'resolved', value: 'refund issued', source: 'api' }, 'out_5:again'),
    ];
    const other = sampleEvent('outcome.recorded', {
      tenant: randomUUID(),
      idempotency_key: 'other',
      occurred_at: at(10, 30),
      data: { outcome_id: 'out_9', call_id: 'call-1', agent: 'agent_a', outcome_type: 'converted' },
    });
    const outcome = await store.apply(logRecords([...events, other], 0n));
    expect(outcome).toMatchObject({ applied: 7, deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('pages the outcomes newest recorded first, the id breaking ties, an outcome recorded again once', async () => {
    const first = pagingOf({ limit: 3 }, KINDS);
    const page1 = await rows(first);
    expect(page1.map((r) => r.id)).toEqual(['out_5', 'out_4', 'out_2', 'out_3']);
    const second = pagingOf({ limit: 3, cursor: cursorAfter(page1, first) }, KINDS);
    const page2 = await rows(second);
    expect(page2.map((r) => r.id)).toEqual(['out_3', 'out_1']);
    expect(cursorAfter(page2, second)).toBeUndefined();
    expect(page1[0]).toEqual({
      id: 'out_5',
      call_id: 'call-4',
      agent: 'agent_a',
      type: 'resolved',
      value: 'refund issued',
      source: 'api',
      revenue_usd: 0,
      recorded_at: new Date(at(12)),
    });
  });

  it('filters by call, and pages within it', async () => {
    const first = pagingOf({ limit: 1 }, KINDS);
    const page1 = await rows(first, 'call-1');
    expect(page1.map((r) => [r.id, r.revenue_usd])).toEqual([
      ['out_3', 80],
      ['out_1', 120],
    ]);
    expect((await rows(pagingOf({ limit: 1, cursor: cursorAfter(page1, first) }, KINDS), 'call-1')).map((r) => r.id)).toEqual(['out_1']);
    expect(await rows(first, 'call-none')).toEqual([]);
  });

  it('counts an agent’s outcomes per type before and after a moment, within the window', async () => {
    const counts = (agent: string, moment: string, from: string, to: string) =>
      inTenant(db, tenant, (tx) => outcomeCountsAround(tx, agent, new Date(moment), { from: new Date(from), to: new Date(to) }));
    // The moment itself counts as after; the window's end is left out.
    expect(await counts('agent_a', at(10), at(0), at(23))).toEqual([
      { type: 'converted', before: 1, after: 1 },
      { type: 'escalated', before: 0, after: 1 },
      { type: 'resolved', before: 0, after: 1 },
    ]);
    expect(await counts('agent_a', at(10), at(9), at(12))).toEqual([
      { type: 'converted', before: 1, after: 1 },
      { type: 'escalated', before: 0, after: 1 },
    ]);
    expect(await counts('agent_b', at(10), at(0), at(23))).toEqual([{ type: 'converted', before: 0, after: 1 }]);
    expect(await counts('agent_c', at(10), at(0), at(23))).toEqual([]);
  });

  it('shows another tenant none of these outcomes', async () => {
    const stranger = randomUUID();
    expect(await inTenant(db, stranger, (tx) => outcomeRows(tx, {}, pagingOf({ limit: 10 }, KINDS)))).toEqual([]);
    expect(await inTenant(db, stranger, (tx) => outcomeCountsAround(tx, 'agent_a', new Date(at(10)), { from: new Date(at(0)), to: new Date(at(23)) }))).toEqual(
      [],
    );
  });
});
