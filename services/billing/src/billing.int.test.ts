import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@earshot/contracts';
import { encodeEvent } from '@earshot/events';
import { gatewayModule } from '@earshot/gateway';
import { rebuildReadModels } from '@earshot/projector';
import { callScript, waitUntilCaughtUp, envelope, ingestHeaders, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';
import { billingModule } from './billing';
import { closePeriods } from './period-closer';

const ADMIN = 'billing-test-operator-token-0123456789';
const GROWTH = {
  id: 'growth',
  baseFeeCents: 1_000,
  prices: [
    { meter: 'calls', included: 1, unitPriceCents: 50 },
    { meter: 'call_minutes', unitPriceCents: 3 },
    { meter: 'events_ingested', included: 10, unitSize: 10, unitPriceCents: 7 },
    { meter: 'stored_megabytes', unitPriceCents: 100 },
  ],
};

describe('billing: plans, usage and invoices against the log', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;
  let acmeEvents: StoredEvent[];

  const putPlan = (tenantId: string, body: unknown, token = ADMIN) =>
    query.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/tenants/${tenantId}/plan`,
      payload: body as Record<string, unknown>,
      headers: { authorization: `Bearer ${token}` },
    });
  const close = (at: string) => closePeriods({ db: query.runtime.database(), log: query.runtime.log(), now: new Date(at), settleMs: 60_000 });
  const settle = () => waitUntilCaughtUp(query.runtime.database(), query.runtime.log());
  const setClock = (at: string) => query.clock.advance(Date.parse(at) - query.clock.now().getTime());

  beforeAll(async () => {
    query = await startTestQuery('billing-service', {
      env: { EARSHOT_ADMIN_TOKEN: ADMIN },
      modules: (runtime) => [billingModule(runtime, { closeIntervalMs: 3_600_000 }), gatewayModule(runtime)],
    });
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    expect((await putPlan(acme.id, GROWTH)).json()).toMatchObject({ ok: true, tenantId: acme.id, plan: { id: 'growth', currency: 'USD', period: 'month' } });
    acmeEvents = [
      ...callScript({ tenant: acme.id, providerCallId: 'feb-1', turns: 3, startMs: Date.parse('2026-02-03T10:00:00Z') }),
      ...callScript({ tenant: acme.id, providerCallId: 'feb-2', turns: 5, startMs: Date.parse('2026-02-20T16:00:00Z'), ending: 'failed' }),
    ];
    await query.project([...acmeEvents, ...callScript({ tenant: globex.id, providerCallId: 'feb-g', turns: 2, startMs: Date.parse('2026-02-10T09:00:00Z') })]);
  });
  afterAll(async () => query?.stop());

  it('refuses a plan without the operator token (401), for an unknown tenant (404), and a malformed plan (400) naming the field: a price out of range, a meter priced twice', async () => {
    expect((await putPlan(acme.id, GROWTH, 'wrong')).statusCode).toBe(401);
    expect((await putPlan('00000000-0000-4000-8000-000000000000', GROWTH)).json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const bad = await putPlan(acme.id, { ...GROWTH, prices: [{ meter: 'calls', unitPriceCents: -1 }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(bad.json().error).toContain('unitPriceCents');
    // Beyond what the log's Avro long carries exactly: refused as input, not a codec failure (500) after validation.
    const huge = await putPlan(acme.id, { ...GROWTH, baseFeeCents: Number.MAX_SAFE_INTEGER });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error).toContain('baseFeeCents');
    const twice = await putPlan(acme.id, {
      ...GROWTH,
      prices: [
        { meter: 'calls', unitPriceCents: 1 },
        { meter: 'calls', unitPriceCents: 2 },
      ],
    });
    expect(twice.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
  });

  it('meters exactly what was ingested: events, their bytes, calls and their minutes', async () => {
    setClock('2026-02-25T00:00:00Z');
    const usage = (await query.get('/usage', acme.apiKey)).json();
    const sum = (field: string) => usage.items.reduce((n: number, d: Record<string, number>) => n + (d[field] ?? 0), 0);
    expect(sum('eventsIngested')).toBe(acmeEvents.length);
    expect(sum('storedBytes')).toBe(acmeEvents.reduce((n, e) => n + encodeEvent(e).length, 0));
    expect(sum('calls')).toBe(2);
    const calls = (await query.get('/calls', acme.apiKey)).json().items as { durationMs: number }[];
    const minutes = calls.reduce((n, c) => n + c.durationMs, 0) / 60_000;
    expect(usage.period).toMatchObject({ start: '2026-02-01T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z', planId: 'growth', baseFeeCents: 1_000 });
    const meter = (name: string) => usage.period.meters.find((m: { meter: string }) => m.meter === name);
    expect(meter('calls')).toMatchObject({ quantity: 2, included: 1, billable: 1, amountCents: 50 });
    expect(meter('call_minutes').quantity).toBeCloseTo(minutes, 3);
    expect(meter('events_ingested')).toMatchObject({ quantity: acmeEvents.length });
    expect((await query.get('/usage', globex.apiKey)).json().period).toMatchObject({ planId: 'default' });
  });

  it('issues each ended period’s invoice once the projector has caught up, numbered, priced by the plan, and the same after a replay', async () => {
    expect((await close('2026-03-01T00:00:30Z')).issued).toEqual([]);
    const first = await close('2026-03-01T00:02:00Z');
    expect(first.issued.map((e) => e.idempotency_key).sort()).toEqual([`invoice:${acme.id}:2026-02`, `invoice:${globex.id}:2026-02`].sort());
    // Until they are projected the meters are not final: a second pass appends nothing.
    expect((await close('2026-03-01T00:02:01Z')).issued).toEqual([]);
    // A second closer that raced the first appends the same events: applied once.
    await query.project(first.issued);
    expect((await close('2026-03-01T00:03:00Z')).issued).toEqual([]);

    setClock('2026-02-28T23:00:00Z');
    const usage = (await query.get('/usage', acme.apiKey)).json().period;
    const invoices = (await query.get('/billing/invoices', acme.apiKey)).json().items;
    expect(invoices).toHaveLength(1);
    const [invoice] = invoices;
    expect(invoice).toMatchObject({
      id: 'inv-2026-02',
      number: 1,
      status: 'issued',
      planId: 'growth',
      periodStart: '2026-02-01T00:00:00.000Z',
      periodEnd: '2026-03-01T00:00:00.000Z',
      baseFeeCents: 1_000,
    });
    const priced = usage.meters.filter((m: { meter: string }) => GROWTH.prices.some((p) => p.meter === m.meter));
    expect(invoice.lines.map((l: { meter: string; amountCents: number }) => [l.meter, l.amountCents])).toEqual(
      GROWTH.prices.map((p) => [p.meter, priced.find((m: { meter: string }) => m.meter === p.meter).amountCents]),
    );
    const minutesCents = Math.ceil(invoice.lines[1].quantity) * 3;
    const eventsCents = Math.ceil((acmeEvents.length - 10) / 10) * 7;
    expect(invoice.lines.map((l: { amountCents: number }) => l.amountCents)).toEqual([50, minutesCents, eventsCents, 100]);
    expect(invoice.totalCents).toBe(1_000 + 50 + minutesCents + eventsCents + 100);
    expect((await query.get('/billing/invoices', globex.apiKey)).json().items).toMatchObject([{ number: 1, planId: 'default', totalCents: 0 }]);

    // The next month, with no use: number 2, the base fee alone.
    expect((await close('2026-04-01T00:02:00Z')).issued.map((e) => e.idempotency_key).sort()).toEqual(
      [`invoice:${acme.id}:2026-03`, `invoice:${globex.id}:2026-03`].sort(),
    );
    await settle();
    const both = (await query.get('/billing/invoices', acme.apiKey)).json();
    expect(both.items.map((i: { number: number; totalCents: number }) => [i.number, i.totalCents])).toEqual([
      [2, 1_000],
      [1, invoice.totalCents],
    ]);

    await rebuildReadModels({ db: query.runtime.database(), log: query.runtime.log(), from: 'earliest' });
    await settle();
    expect((await query.get('/billing/invoices', acme.apiKey)).json()).toEqual(both);
    expect((await query.get('/usage', acme.apiKey)).json().period).toEqual(usage);
  });

  it('meters each envelope delivered to the ingest API as an API request (a retry too), and a retried envelope as one event', async () => {
    setClock('2026-05-05T10:00:00Z');
    const initech = await query.createTenant('Initech');
    const ingest = async (body: unknown) => {
      const raw = JSON.stringify(body);
      const response = await query.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks/ingest',
        payload: raw,
        headers: ingestHeaders({ body: raw, credentials: initech, timestamp: query.clock.seconds() }),
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
    };
    await ingest([
      envelope('i-1', { call: { provider_call_id: 'i-call-1', agent_id: 'a' } }),
      envelope('i-2', { call: { provider_call_id: 'i-call-2', agent_id: 'a' } }),
    ]);
    await ingest(envelope('i-3', { call: { provider_call_id: 'i-call-3', agent_id: 'a' } }));
    await ingest(envelope('i-3', { call: { provider_call_id: 'i-call-3', agent_id: 'a' } }));
    // The gateway appends its delivery records a moment after it answers, so the usage is read until all four are in.
    let days: { eventsIngested: number; apiRequests: number; calls: number }[] = [];
    for (let tries = 0; tries < 50 && days.reduce((n, d) => n + d.apiRequests, 0) < 4; tries++) {
      await settle();
      days = (await query.get('/usage', initech.apiKey)).json().items as typeof days;
    }
    // Deliveries are recorded per envelope: the batch of two counts two, the retry one more.
    expect(days.reduce((n, d) => n + d.apiRequests, 0)).toBe(4);
    expect(days.reduce((n, d) => n + d.eventsIngested, 0)).toBe(3);
    expect(days.reduce((n, d) => n + d.calls, 0)).toBe(3);
  });
});
