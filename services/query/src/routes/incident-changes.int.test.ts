import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntilCaughtUp, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

describe('PATCH /incidents/{id}', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  // Each change is stamped with the (test) clock; the latest by stamp wins, so each comes a second after the last.
  const patch = (id: string, apiKey: string, body: unknown, idempotencyKey?: string) => {
    query.clock.advance(1_000);
    return query.app.inject({
      method: 'PATCH',
      url: `/api/v1/incidents/${id}`,
      payload: body as Record<string, unknown>,
      headers: { authorization: `Bearer ${apiKey}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    });
  };
  const settle = () => waitUntilCaughtUp(query.runtime.database(), query.runtime.log());
  const incident = async (apiKey: string, id: string) => ((await query.get('/incidents', apiKey)).json().items as { id: string }[]).find((i) => i.id === id);

  beforeAll(async () => {
    query = await startTestQuery('incident-changes');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
  });
  afterAll(async () => query?.stop());

  it('moves an incident open → acknowledged → resolved, each step a note on its timeline', async () => {
    const id = (await query.post('/incidents', acme.apiKey, { title: 'LLM timeouts', severity: 'high', startedAt: '2026-03-01T10:00:00Z' })).json()
      .id as string;
    await settle();
    expect(await incident(acme.apiKey, id)).toMatchObject({ status: 'open', notes: [] });

    const acknowledged = await patch(id, acme.apiKey, { status: 'acknowledged', note: 'On it: paging the LLM provider' }, 'ack-1');
    expect(acknowledged.statusCode).toBe(200);
    expect((await patch(id, acme.apiKey, { status: 'acknowledged', note: 'On it: paging the LLM provider' }, 'ack-1')).headers['idempotent-replayed']).toBe(
      'true',
    );
    await settle();
    expect(await incident(acme.apiKey, id)).toMatchObject({ status: 'acknowledged', notes: [{ note: 'On it: paging the LLM provider' }] });
    expect((await query.get('/incidents?status=acknowledged', acme.apiKey)).json().items.map((i: { id: string }) => i.id)).toEqual([id]);

    expect((await patch(id, acme.apiKey, { severity: 'critical', affectedAgents: ['agent_support'] })).statusCode).toBe(200);
    expect((await patch(id, acme.apiKey, { status: 'resolved', note: 'Provider recovered; p95 back under 1 s' })).statusCode).toBe(200);
    await settle();
    const resolved = await incident(acme.apiKey, id);
    expect(resolved).toMatchObject({ status: 'resolved', severity: 'critical', affectedAgents: ['agent_support'], title: 'LLM timeouts' });
    expect((resolved as unknown as { notes: { note: string }[] }).notes.map((n) => n.note)).toEqual([
      'On it: paging the LLM provider',
      'Provider recovered; p95 back under 1 s',
    ]);
  });

  it('answers 404 for another tenant’s incident or none, 400 for an empty or unknown change, 403 without incidents:write', async () => {
    const id = (await query.post('/incidents', acme.apiKey, { title: 'Tool down', severity: 'low' })).json().id as string;
    await settle();
    expect((await patch(id, globex.apiKey, { status: 'resolved' })).json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect((await patch('no-such-incident', acme.apiKey, { status: 'resolved' })).statusCode).toBe(404);
    expect((await patch(id, acme.apiKey, {})).json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect((await patch(id, acme.apiKey, { status: 'closed' })).json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ path: 'body.status' }] });
    const reader = await query.createKey(acme.id, { scopes: ['incidents:read'] });
    expect((await patch(id, reader, { status: 'resolved' })).statusCode).toBe(403);
    await settle();
    expect(await incident(acme.apiKey, id)).toMatchObject({ status: 'open' });
  });
});
