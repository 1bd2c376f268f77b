import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '@earshot/db';
import { callIdOf } from '@earshot/events';
import { callScript, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

const BASE = Date.parse('2026-02-01T08:00:00.000Z');

describe('GET /calls and GET /calls/{id}', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  const calls = (tenant: string, from: number, count: number, prefix: string) =>
    Array.from({ length: count }, (_, i) =>
      callScript({
        tenant,
        providerCallId: `${prefix}-${from + i}`,
        turns: 2,
        startMs: BASE + (from + i) * 60_000,
        agentId: i % 2 ? 'agent_sales' : 'agent_support',
        ending: i % 5 === 4 ? 'failed' : 'completed',
      }),
    ).flat();

  beforeAll(async () => {
    query = await startTestQuery('calls');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    await query.project([...calls(acme.id, 0, 30, 'acme'), ...calls(globex.id, 0, 3, 'globex')]);
  });
  afterAll(async () => query?.stop());

  it('lists the tenant’s calls newest first in the spec’s Call shape, 50 by default', async () => {
    const response = await query.get('/calls', acme.apiKey);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.ok).toBe(true);
    expect(page.items).toHaveLength(30);
    expect(page.nextCursor).toBeNull();
    const first = page.items[0];
    expect(first).toMatchObject({
      id: callIdOf(acme.id, 'vapi', 'acme-29'),
      agentId: 'agent_sales',
      status: 'failed',
      startedAt: expect.any(String),
      durationMs: expect.any(Number),
    });
    expect(first.latency).toEqual({ asrMs: expect.any(Number), llmMs: expect.any(Number), ttsMs: expect.any(Number), totalMs: expect.any(Number) });
    const starts = page.items.map((c: { startedAt: string }) => c.startedAt);
    expect(starts).toEqual([...starts].sort().reverse());
  });

  it('filters by status, agentId and a from/to range of start times', async () => {
    const failed = (await query.get('/calls?status=failed', acme.apiKey)).json();
    expect(failed.items).toHaveLength(6);
    expect(failed.items.every((c: { status: string }) => c.status === 'failed')).toBe(true);
    const sales = (await query.get('/calls?agentId=agent_sales', acme.apiKey)).json();
    expect(sales.items).toHaveLength(15);
    const from = new Date(BASE + 10 * 60_000).toISOString();
    const to = new Date(BASE + 20 * 60_000).toISOString();
    const ranged = (await query.get(`/calls?from=${from}&to=${to}`, acme.apiKey)).json();
    expect(ranged.items).toHaveLength(10);
  });

  it('pages with an opaque cursor in every sort, each call once, nextCursor null on the last page', async () => {
    for (const sort of ['startedAt', '-startedAt', 'durationMs', '-durationMs', 'qualityScore', '-qualityScore']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url: string = `/calls?limit=7&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`;
        const page = (await query.get(url, acme.apiKey)).json();
        seen.push(...page.items.map((c: { id: string }) => c.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages, sort).toBe(5);
      expect(new Set(seen).size, sort).toBe(30);
      expect(seen, sort).toHaveLength(30);
    }
  });

  it('skips and repeats no call while calls are inserted between pages', async () => {
    const first = (await query.get('/calls?limit=10', acme.apiKey)).json();
    const before = first.items.map((c: { id: string }) => c.id);
    // Newer calls (which sort before the cursor) and older ones (after it) arrive between pages.
    await query.project([...calls(acme.id, 100, 3, 'acme-new'), ...calls(acme.id, -50, 3, 'acme-old')]);
    const seen = [...before];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = (await query.get(`/calls?limit=10&cursor=${cursor}`, acme.apiKey)).json();
      seen.push(...page.items.map((c: { id: string }) => c.id));
      cursor = page.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const original = Array.from({ length: 30 }, (_, i) => callIdOf(acme.id, 'vapi', `acme-${i}`));
    expect(seen).toEqual(expect.arrayContaining(original));
    expect(seen).toEqual(expect.arrayContaining([0, 1, 2].map((i) => callIdOf(acme.id, 'vapi', `acme-old--${50 - i}`))));
  });

  it('answers page/limit too, with page and nextPage', async () => {
    const page2 = (await query.get('/calls?limit=10&page=2', acme.apiKey)).json();
    const all = (await query.get('/calls?limit=200', acme.apiKey)).json();
    expect(page2.items.map((c: { id: string }) => c.id)).toEqual(all.items.slice(10, 20).map((c: { id: string }) => c.id));
    expect(page2).toMatchObject({ page: 2, nextPage: 3 });
  });

  it('refuses limit above 200 and a forged cursor (400 VALIDATION_ERROR)', async () => {
    for (const url of [
      '/calls?limit=201',
      '/calls?limit=0',
      '/calls?cursor=not-a-cursor',
      '/calls?sort=name',
      '/calls?status=ringing',
      '/calls?from=yesterday',
    ]) {
      const response = await query.get(url, acme.apiKey);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', error: expect.any(String) });
    }
  });

  it('reads a cursor under another sort as the same position in that order, and counts page numbers from a cursor (both once 400s the document could not express)', async () => {
    const { nextCursor } = (await query.get('/calls?limit=5&sort=durationMs', acme.apiKey)).json();
    expect((await query.get(`/calls?sort=-startedAt&cursor=${nextCursor}`, acme.apiKey)).statusCode).toBe(200);
    const afterCursor = (await query.get(`/calls?sort=durationMs&limit=1&cursor=${nextCursor}`, acme.apiKey)).json();
    const secondPage = (await query.get(`/calls?sort=durationMs&limit=1&cursor=${nextCursor}&page=2`, acme.apiKey)).json();
    const both = (await query.get(`/calls?sort=durationMs&limit=2&cursor=${nextCursor}`, acme.apiKey)).json();
    expect(secondPage).toMatchObject({ ok: true, page: 2 });
    expect([...afterCursor.items, ...secondPage.items].map((c: { id: string }) => c.id)).toEqual(both.items.map((c: { id: string }) => c.id));
  });

  it('gives a call with its turns, transcript and traces', async () => {
    const id = callIdOf(acme.id, 'vapi', 'acme-3');
    const response = await query.get(`/calls/${id}`, acme.apiKey);
    expect(response.statusCode).toBe(200);
    const { call } = response.json();
    expect(call).toMatchObject({ id, agentId: 'agent_sales', status: 'completed', providerCallId: 'acme-3', turnCount: 2 });
    expect(call.turns).toHaveLength(2);
    expect(call.turns[0].latency.totalMs).toBeGreaterThan(0);
    expect(call.transcript.length).toBeGreaterThanOrEqual(4);
    expect(call.traces.map((t: { kind: string }) => t.kind)).toContain('workflow_state');
  });

  it('answers 404 for another tenant’s call, a guessed id and a malformed id, never its row', async () => {
    const theirs = callIdOf(globex.id, 'vapi', 'globex-0');
    expect((await query.get(`/calls/${theirs}`, globex.apiKey)).statusCode).toBe(200);
    for (const id of [theirs, callIdOf(acme.id, 'vapi', 'never-sent'), 'not-a-uuid']) {
      const response = await query.get(`/calls/${id}`, acme.apiKey);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    }
    const globexList = (await query.get('/calls', globex.apiKey)).json();
    expect(globexList.items).toHaveLength(3);
  });

  it('renders each call in Postgres exactly as its row holds it: times in toISOString’s form, to the millisecond', async () => {
    const initech = await query.createTenant('Initech');
    // The call starts 3.62 s past the minute: Postgres would write the fraction as ".62", the API writes ".620".
    await query.project(callScript({ tenant: initech.id, providerCallId: 'initech-0', turns: 2, startMs: BASE + 1_120 }));
    const id = callIdOf(initech.id, 'vapi', 'initech-0');
    const listed = (await query.get('/calls', initech.apiKey)).json().items[0];
    const { call } = (await query.get(`/calls/${id}`, initech.apiKey)).json();
    expect(listed.startedAt).toBe('2026-02-01T08:00:03.620Z');
    const iso = (value: Date | null) => (value === null ? null : value.toISOString());
    const [row] = (await query.db.query(sql`select * from calls where id = ${id}`)) as Record<string, Date | number | string | boolean | null>[];
    const expected = {
      startedAt: iso(row?.started_at as Date),
      answeredAt: iso(row?.answered_at as Date | null),
      endedAt: iso(row?.ended_at as Date | null),
      durationMs: row?.duration_ms,
      qualityScore: row?.quality_score,
      costUsd: row?.cost_usd,
      success: row?.success,
      summary: row?.summary,
      latency: { asrMs: row?.latency_asr_ms, llmMs: row?.latency_llm_ms, ttsMs: row?.latency_tts_ms, totalMs: row?.latency_total_ms },
    };
    expect(listed).toMatchObject(expected);
    expect(call).toMatchObject(expected);
    const turns = (await query.db.query(sql`select occurred_at from turns where call_id = ${id} order by occurred_at, turn_id`)) as { occurred_at: Date }[];
    expect(call.turns.map((t: { occurredAt: string }) => t.occurredAt)).toEqual(turns.map((t) => t.occurred_at.toISOString()));
    const segments = (await query.db.query(sql`select occurred_at from transcripts where call_id = ${id} order by occurred_at, turn_id, speaker`)) as {
      occurred_at: Date;
    }[];
    expect(call.transcript.map((s: { occurredAt: string }) => s.occurredAt)).toEqual(segments.map((s) => s.occurred_at.toISOString()));
    const traces = (await query.db.query(
      sql`select started_at, ended_at from traces where call_id = ${id} order by started_at nulls last, kind, trace_id`,
    )) as { started_at: Date | null; ended_at: Date | null }[];
    expect(call.traces.map((t: { startedAt: string | null; endedAt: string | null }) => [t.startedAt, t.endedAt])).toEqual(
      traces.map((t) => [iso(t.started_at), iso(t.ended_at)]),
    );
  });

  it('renders a call the projector wrote before it kept calls.resource exactly as the projector renders it', async () => {
    const hooli = await query.createTenant('Hooli');
    await query.project(calls(hooli.id, 0, 5, 'hooli'));
    const id = callIdOf(hooli.id, 'vapi', 'hooli-4');
    const read = async () => ({ page: (await query.get('/calls', hooli.apiKey)).json(), detail: (await query.get(`/calls/${id}`, hooli.apiKey)).json() });
    const stored = await read();
    const [{ unrendered } = { unrendered: -1 }] = (await query.db.query(sql`
      with cleared as (update calls set resource = null where tenant_id = ${hooli.id} returning 1) select count(*)::int as unrendered from cleared`)) as {
      unrendered: number;
    }[];
    expect(unrendered).toBe(5);
    expect(await read()).toEqual(stored);
  });
});
