import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, EventType } from '@earshot/contracts';
import { inTenant, sql, type ConnectionPool } from '@earshot/db';
import { encodeDelivery } from '@earshot/events';
import { sampleDelivery, sampleEvent } from '@earshot/events/samples';
import { TOPICS, type LogRecord } from '@earshot/log';
import { pageOf, pagingOf, type Paging } from '@earshot/server';
import { callScript, logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { firstMeteredDay, readQuantities, usageRows, type UsageRow } from './usage-meters.queries';

const tenant = randomUUID();
const KINDS = { value: 'none', id: 'day' } as const;
const UNMETERED: ReadonlySet<EventType> = new Set(['invoice.issued', 'billing.plan.changed']);

/** Deliveries as the gateway's recorder appends them, on their own topic and partition. */
function deliveryRecords(deliveries: readonly Delivery[], firstOffset: bigint): LogRecord[] {
  return deliveries.map((delivery, i) => ({
    topic: TOPICS.deliveries,
    partition: 0,
    offset: (firstOffset + BigInt(i)).toString(),
    key: delivery.tenant,
    value: encodeDelivery(delivery),
    headers: { tenant: delivery.tenant, outcome: delivery.outcome },
    timestamp: Date.parse(delivery.time),
  }));
}

describe('the usage meters read model’s queries', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;
  /** What the tenant's metered event records add to each day: their count and their bytes. */
  const expected = new Map<string, { events: number; bytes: number }>();
  const rows = (paging: Paging, range: { from?: string; to?: string } = {}) => inTenant(db, tenant, (tx) => usageRows(tx, range, paging));
  // The cursor GET /usage hands out after a page: the last day shown.
  const cursorAfter = (page: UsageRow[], paging: Paging) =>
    pageOf(
      page,
      paging,
      (r) => ({ v: r.day, id: r.day }),
      (r) => r.day,
    ).nextCursor ?? undefined;

  beforeAll(async () => {
    store = await readModelStore('usage_meter_queries');
    db = store.db;
    const events = [
      ...callScript({ tenant, providerCallId: 'call-a', turns: 1, startMs: Date.parse('2026-01-05T10:00:00.000Z') }),
      // Rings five seconds before midnight: its events run into the next day, the call counts on the day it started.
      ...callScript({ tenant, providerCallId: 'call-b', turns: 1, startMs: Date.parse('2026-01-07T23:59:55.000Z') }),
      sampleEvent('deployment.recorded', { tenant, idempotency_key: 'dep', received_at: '2026-01-06T12:00:00.000Z' }),
      // Earshot's own records: not the tenant's use.
      sampleEvent('invoice.issued', { tenant, idempotency_key: 'inv', received_at: '2026-01-06T12:00:00.000Z' }),
      sampleEvent('billing.plan.changed', { tenant, idempotency_key: 'plan', received_at: '2026-01-06T12:00:00.000Z' }),
      ...callScript({ tenant: randomUUID(), providerCallId: 'elsewhere', turns: 1, startMs: Date.parse('2026-01-03T10:00:00.000Z') }),
    ];
    const records = logRecords(events, 0n);
    events.forEach((event, i) => {
      if (event.tenant !== tenant || UNMETERED.has(event.type)) return;
      const day = event.received_at.slice(0, 10);
      const sum = expected.get(day) ?? { events: 0, bytes: 0 };
      expected.set(day, { events: sum.events + 1, bytes: sum.bytes + (records[i]?.value.length ?? 0) });
    });
    const deliveries = [
      sampleDelivery({ id: randomUUID(), tenant, time: '2026-01-04T08:00:00.000Z' }),
      sampleDelivery({ id: randomUUID(), tenant, time: '2026-01-07T08:00:00.000Z' }),
      // A duplicate is answered, so it is a request too.
      sampleDelivery({ id: randomUUID(), tenant, time: '2026-01-07T09:00:00.000Z', outcome: 'duplicate', http_status: 200 }),
      sampleDelivery({ id: randomUUID(), tenant: randomUUID(), time: '2026-01-02T08:00:00.000Z' }),
    ];
    const { apply } = store;
    expect(await apply(records)).toMatchObject({ deadLettered: 0 });
    expect(await apply(deliveryRecords(deliveries, 0n))).toMatchObject({ applied: 4, deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('meters each day: events and bytes by the day received, calls by the day started, requests by the day sent', async () => {
    const [durations] = (await inTenant(db, tenant, (tx) =>
      tx.query(
        sql`select (sum(duration_ms) filter (where provider_call_id = 'call-a'))::int as a, (sum(duration_ms) filter (where provider_call_id = 'call-b'))::int as b from calls`,
      ),
    )) as { a: number; b: number }[];
    const of = (day: string) => expected.get(day) ?? { events: 0, bytes: 0 };
    expect(of('2026-01-05').events).toBe(13);
    expect(of('2026-01-06').events).toBe(1);
    expect(await rows(pagingOf({ limit: 10 }, KINDS))).toEqual([
      { day: '2026-01-08', events_ingested: of('2026-01-08').events, stored_bytes: of('2026-01-08').bytes, calls: 0, call_ms: 0, api_requests: 0 },
      { day: '2026-01-07', events_ingested: of('2026-01-07').events, stored_bytes: of('2026-01-07').bytes, calls: 1, call_ms: durations?.b, api_requests: 2 },
      { day: '2026-01-06', events_ingested: 1, stored_bytes: of('2026-01-06').bytes, calls: 0, call_ms: 0, api_requests: 0 },
      { day: '2026-01-05', events_ingested: 13, stored_bytes: of('2026-01-05').bytes, calls: 1, call_ms: durations?.a, api_requests: 0 },
      { day: '2026-01-04', events_ingested: 0, stored_bytes: 0, calls: 0, call_ms: 0, api_requests: 1 },
    ]);
    expect(of('2026-01-07').events + of('2026-01-08').events).toBe(13);
    expect(of('2026-01-08').events).toBeGreaterThan(0);
    expect(durations?.a).toBeGreaterThan(0);
  });

  it('pages the days newest first, the last day shown as the cursor', async () => {
    const first = pagingOf({ limit: 2 }, KINDS);
    const page1 = await rows(first);
    expect(page1.map((r) => r.day)).toEqual(['2026-01-08', '2026-01-07', '2026-01-06']);
    const second = pagingOf({ limit: 2, cursor: cursorAfter(page1, first) }, KINDS);
    const page2 = await rows(second);
    expect(page2.map((r) => r.day)).toEqual(['2026-01-06', '2026-01-05', '2026-01-04']);
    const third = pagingOf({ limit: 2, cursor: cursorAfter(page2, second) }, KINDS);
    expect((await rows(third)).map((r) => r.day)).toEqual(['2026-01-04']);
  });

  it('keeps to the UTC days that overlap [from, to)', async () => {
    const page = pagingOf({ limit: 10 }, KINDS);
    const days = async (range: { from?: string; to?: string }) => (await rows(page, range)).map((r) => r.day);
    expect(await days({ from: '2026-01-05T00:00:00Z', to: '2026-01-07T00:00:00Z' })).toEqual(['2026-01-06', '2026-01-05']);
    // A `from` late in a day still takes that whole day; an offset is read as the UTC instant it names.
    expect(await days({ from: '2026-01-06T23:30:00Z' })).toEqual(['2026-01-08', '2026-01-07', '2026-01-06']);
    expect(await days({ from: '2026-01-07T01:30:00+02:00' })).toEqual(['2026-01-08', '2026-01-07', '2026-01-06']);
    expect(await days({ to: '2026-01-05T00:00:00Z' })).toEqual(['2026-01-04']);
    // A `to` within a day keeps that day, whose first hours are before it: both ends are read alike.
    expect(await days({ from: '2026-01-05T12:00:00Z', to: '2026-01-06T12:00:00Z' })).toEqual(['2026-01-06', '2026-01-05']);
    expect(await days({ to: '2026-01-05T00:00:00.001Z' })).toEqual(['2026-01-05', '2026-01-04']);
    expect(await days({ from: '2026-02-01T00:00:00Z' })).toEqual([]);
  });

  it('gives the first metered day, requests-only days included', async () => {
    expect(await inTenant(db, tenant, (tx) => firstMeteredDay(tx))).toBe('2026-01-04');
  });

  it('sums every meter over a billing period, in the units prices are set in', async () => {
    const all = await rows(pagingOf({ limit: 10 }, KINDS));
    const sum = (pick: (r: UsageRow) => number, from = '0000', to = '9999') =>
      all.filter((r) => r.day >= from && r.day < to).reduce((total, r) => total + pick(r), 0);
    const period = { start: new Date('2026-01-01T00:00:00.000Z'), end: new Date('2026-02-01T00:00:00.000Z') };
    expect(await inTenant(db, tenant, (tx) => readQuantities(tx, period))).toEqual({
      events_ingested: sum((r) => r.events_ingested),
      calls: 2,
      call_minutes: sum((r) => r.call_ms) / 60_000,
      api_requests: 3,
      stored_megabytes: sum((r) => r.stored_bytes) / 1_000_000,
    });
    // The period's end day is left out.
    const early = { start: new Date('2026-01-05T00:00:00.000Z'), end: new Date('2026-01-07T00:00:00.000Z') };
    expect(await inTenant(db, tenant, (tx) => readQuantities(tx, early))).toMatchObject({
      events_ingested: 14,
      calls: 1,
      api_requests: 0,
      stored_megabytes: sum((r) => r.stored_bytes, '2026-01-05', '2026-01-07') / 1_000_000,
    });
  });

  it('shows another tenant none of this use: no days, no first day, nothing to bill', async () => {
    const stranger = randomUUID();
    expect(await inTenant(db, stranger, (tx) => usageRows(tx, {}, pagingOf({ limit: 10 }, KINDS)))).toEqual([]);
    expect(await inTenant(db, stranger, (tx) => firstMeteredDay(tx))).toBeNull();
    const period = { start: new Date('2026-01-01T00:00:00.000Z'), end: new Date('2026-02-01T00:00:00.000Z') };
    expect(await inTenant(db, stranger, (tx) => readQuantities(tx, period))).toEqual({
      events_ingested: 0,
      calls: 0,
      call_minutes: 0,
      api_requests: 0,
      stored_megabytes: 0,
    });
  });
});
