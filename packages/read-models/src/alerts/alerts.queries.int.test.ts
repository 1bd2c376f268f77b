import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventData } from '@earshot/contracts';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { pageOf, pagingOf, type Paging } from '@earshot/server';
import { logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { alertRows, type AlertRow } from './alerts.queries';

const tenant = randomUUID();
const KINDS = { value: 'time', id: 'text' } as const;
const at = (minute: number) => `2026-01-08T09:${String(minute).padStart(2, '0')}:00.000Z`;
const fired = (id: string, minute: number, data: Partial<EventData<'alert.fired'>> = {}) =>
  sampleEvent('alert.fired', { tenant, idempotency_key: `${id}:fired`, occurred_at: at(minute), data: { alert_id: id, ...data } });
const resolved = (id: string, minute: number, data: Partial<EventData<'alert.resolved'>> = {}) =>
  sampleEvent('alert.resolved', { tenant, idempotency_key: `${id}:resolved`, occurred_at: at(minute), data: { alert_id: id, fired_at: null, ...data } });

describe('the alerts read model’s queries', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;
  const rows = (paging: Paging, status?: string) => inTenant(db, tenant, (tx) => alertRows(tx, { status }, paging));
  // The cursor GET /alerts hands out after a page.
  const cursorAfter = (page: AlertRow[], paging: Paging) =>
    pageOf(
      page,
      paging,
      (r) => ({ v: r.fired_at.toISOString(), id: r.id }),
      (r) => r.id,
    ).nextCursor ?? undefined;

  beforeAll(async () => {
    store = await readModelStore('alert_queries');
    db = store.db;
    const events = [
      fired('alr_1', 1),
      resolved('alr_1', 16, { value: 870, resolution: 'recovered', resolved_by: 'alerting' }),
      fired('alr_2', 5, { severity: 'critical', value: 2_100 }),
      // alr_3 and alr_4 fired in the same minute: the id breaks the tie, ascending.
      fired('alr_4', 10),
      fired('alr_3', 10),
      // alr_5's resolution arrives without its firing: it sorts by when it was resolved until the firing is seen.
      resolved('alr_5', 20, { metric: 'latency.llm_ms.p95', value: 400, resolution: 'manual', resolved_by: 'ana@acme.example' }),
      // alr_6's resolution arrives a batch before its firing: the stored row merges the two as if in order.
      resolved('alr_6', 30, { value: 900 }),
    ];
    const other = sampleEvent('alert.fired', { tenant: randomUUID(), idempotency_key: 'other', occurred_at: at(40), data: { alert_id: 'alr_1' } });
    const { apply } = store;
    expect(await apply(logRecords([...events, other], 0n))).toMatchObject({ applied: 8, deadLettered: 0 });
    expect(await apply(logRecords([fired('alr_6', 25)], 8n))).toMatchObject({ applied: 1, deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('pages the alerts newest fired first, the id breaking ties', async () => {
    const first = pagingOf({ limit: 3 }, KINDS);
    const page1 = await rows(first);
    expect(page1.map((r) => r.id)).toEqual(['alr_6', 'alr_5', 'alr_3', 'alr_4']);
    const second = pagingOf({ limit: 3, cursor: cursorAfter(page1, first) }, KINDS);
    const page2 = await rows(second);
    expect(page2.map((r) => r.id)).toEqual(['alr_4', 'alr_2', 'alr_1']);
    expect(cursorAfter(page2, second)).toBeUndefined();
  });

  it('filters by status, and pages within it', async () => {
    const first = pagingOf({ limit: 2 }, KINDS);
    const firing = await rows(first, 'firing');
    expect(firing.map((r) => r.id)).toEqual(['alr_3', 'alr_4', 'alr_2']);
    expect((await rows(pagingOf({ limit: 2, cursor: cursorAfter(firing, first) }, KINDS), 'firing')).map((r) => r.id)).toEqual(['alr_2']);
    expect((await rows(pagingOf({ limit: 10 }, KINDS), 'resolved')).map((r) => r.id)).toEqual(['alr_6', 'alr_5', 'alr_1']);
  });

  it('reads a resolved alert with both its firing and its resolution', async () => {
    const [alert] = (await rows(pagingOf({ limit: 10 }, KINDS))).filter((r) => r.id === 'alr_1');
    expect(alert).toEqual({
      id: 'alr_1',
      rule_id: 'rule_p95_latency',
      rule_name: 'p95 voice-to-voice latency over 1.2 s',
      metric: 'latency.total_ms.p95',
      comparison: 'gt',
      threshold: 1_200,
      value: 1_480,
      window_ms: 300_000,
      severity: 'warning',
      agent_id: 'agent_support',
      message: 'p95 latency 1480 ms over the last 5 minutes (threshold 1200 ms)',
      status: 'resolved',
      fired_at: new Date(at(1)),
      resolved_at: new Date(at(16)),
      resolved_value: 870,
      resolution: 'recovered',
      resolved_by: 'alerting',
    });
  });

  it('reads a resolution whose firing is not seen yet, and one seen before its firing', async () => {
    const all = await rows(pagingOf({ limit: 10 }, KINDS));
    expect(all.find((r) => r.id === 'alr_5')).toMatchObject({
      status: 'resolved',
      metric: 'latency.llm_ms.p95',
      rule_name: null,
      value: null,
      fired_at: new Date(at(20)),
      resolved_at: new Date(at(20)),
      resolved_value: 400,
      resolution: 'manual',
    });
    expect(all.find((r) => r.id === 'alr_6')).toMatchObject({ status: 'resolved', value: 1_480, fired_at: new Date(at(25)), resolved_at: new Date(at(30)) });
  });

  it('shows another tenant none of these alerts', async () => {
    expect(await inTenant(db, randomUUID(), (tx) => alertRows(tx, {}, pagingOf({ limit: 10 }, KINDS)))).toEqual([]);
  });
});
