import { execFileSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { verifySignature } from '@earshot/auth';
import { sampleEvent } from '@earshot/events/samples';
import { pythonTools, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';
import { alertingModule, ALERTING_MIGRATIONS, evaluateRules } from './index';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A tenant's webhook endpoint on loopback: answers 503 to the first `failFirst` requests, then 200. */
function receiver(failFirst: number): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = received.length <= failFirst ? 503 : 200;
      response.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/earshot`, received })),
  );
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('alerting: a latency breach fires, opens an incident, notifies signed; recovery resolves both', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let turn = 0;
  // The PyPI standardwebhooks library, installed once into .cache/python (minutes on a cold machine).
  let python: string;
  beforeAll(() => {
    python = `${pythonTools('standardwebhooks', ['standardwebhooks==1.1.0'])}/python`;
  }, 600_000);

  const turns = (totalMs: number, count: number, at: Date) =>
    Array.from({ length: count }, () =>
      sampleEvent('agent.response.generated', {
        tenant: acme.id,
        idempotency_key: `turn-${turn++}`,
        occurred_at: at.toISOString(),
        received_at: at.toISOString(),
        data: { turn_id: `t${turn}`, latency: { asr_ms: 150, llm_ms: totalMs - 400, tts_ms: 250, total_ms: totalMs } },
      }),
    );

  beforeAll(async () => {
    hook = await receiver(1);
    query = await startTestQuery('alerting', {
      migrations: ALERTING_MIGRATIONS,
      // Evaluations are driven by the test, one pass at a time: the interval timer stays out of the way.
      modules: (runtime) => [alertingModule(runtime, { evaluationIntervalMs: 3_600_000, notificationBackoffMs: 20 })],
    });
    acme = await query.createTenant('Acme');
    const put = await query.app.inject({
      method: 'PUT',
      url: '/api/v1/alerts/webhook',
      payload: { url: hook.url },
      headers: { authorization: `Bearer ${acme.apiKey}` },
    });
    expect(put.statusCode).toBe(200);
    const rule = await query.post('/alerts/rules', acme.apiKey, {
      id: 'p95-latency',
      name: 'p95 latency over 1.2 s',
      metric: 'latency.total_ms.p95',
      agentId: 'agent_support',
      comparison: 'gt',
      threshold: 1_200,
      windowMs: 300_000,
      forMs: 0,
      severity: 'critical',
    });
    expect(rule.statusCode).toBe(201);
    await query.project([]);
  });
  afterAll(async () => {
    await query?.stop();
    hook?.server.close();
  });

  it('rules are listed, patched and validated', async () => {
    const listed = (await query.get('/alerts/rules', acme.apiKey)).json();
    expect(listed.items).toEqual([
      expect.objectContaining({ id: 'p95-latency', metric: 'latency.total_ms.p95', threshold: 1_200, windowMs: 300_000, enabled: true }),
    ]);
    expect((await query.post('/alerts/rules', acme.apiKey, { metric: 'latency.nope', comparison: 'gt', threshold: 1 })).statusCode).toBe(400);
    expect((await query.get('/alerts/rules/none', acme.apiKey)).statusCode).toBe(404);
  });

  it('one evaluation after injected slow turns fires the alert, opens an incident and delivers a notification that verifies', async () => {
    const now = query.clock.now();
    await query.project([...turns(900, 20, new Date(now.getTime() - 240_000)), ...turns(2_400, 20, new Date(now.getTime() - 60_000))]);
    const pass = await evaluateRules(query.runtime.database(), query.runtime.log(), query.clock.now());
    expect(pass.events).toBe(2);
    await query.project([]);

    const alerts = (await query.get('/alerts', acme.apiKey)).json().items;
    expect(alerts).toEqual([
      expect.objectContaining({ ruleId: 'p95-latency', status: 'firing', comparison: 'gt', threshold: 1_200, severity: 'critical', agentId: 'agent_support' }),
    ]);
    expect(alerts[0].value).toBeGreaterThan(1_200);
    const incidents = (await query.get('/incidents', acme.apiKey)).json().items;
    expect(incidents).toEqual([
      expect.objectContaining({ id: `inc-${alerts[0].id}`, status: 'open', severity: 'critical', openedBy: 'alerting', affectedAgents: ['agent_support'] }),
    ]);

    // The first attempt gets a 503; the retry is delivered. Both attempts are recorded.
    const attempts = await until(
      async () => (await query.get('/alerts/notifications', acme.apiKey)).json().items as { status: string; attempt: number }[],
      (items) => items.some((i) => i.status === 'delivered'),
    );
    expect(attempts.map((a) => [a.attempt, a.status]).sort()).toEqual([
      [1, 'retrying'],
      [2, 'delivered'],
    ]);
    const delivered = hook.received[1];
    if (!delivered) throw new Error('no delivery');
    const check = verifySignature(
      {
        timestamp: String(delivered.headers['x-earshot-timestamp']),
        signature: String(delivered.headers['x-earshot-signature']),
        body: Buffer.from(delivered.body),
      },
      [acme.webhookSecret],
      query.clock.now(),
    );
    expect(check).toEqual({ ok: true });
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'alert.fired', data: { alert_id: alerts[0].id, rule_id: 'p95-latency' } });

    // Standard Webhooks: the official libraries (npm and PyPI) verify the notification with the tenant's secret as issued.
    const standard = {
      'webhook-id': String(delivered.headers['webhook-id']),
      'webhook-timestamp': String(delivered.headers['webhook-timestamp']),
      'webhook-signature': String(delivered.headers['webhook-signature']),
    };
    expect(standard['webhook-id']).toBe(String(hook.received[0]?.headers['webhook-id']));
    expect(new Webhook(acme.webhookSecret).verify(delivered.body, standard)).toMatchObject({ type: 'alert.fired' });
    expect(() => new Webhook(acme.webhookSecret).verify(delivered.body.replace('p95-latency', 'p50-latency'), standard)).toThrow();
    const verified = execFileSync(
      python,
      [
        '-c',
        'import json, sys\nfrom standardwebhooks.webhooks import Webhook\nprint(json.dumps(Webhook(sys.argv[1]).verify(sys.stdin.read(), json.loads(sys.argv[2]))))',
        acme.webhookSecret,
        JSON.stringify(standard),
      ],
      { input: delivered.body, encoding: 'utf8' },
    );
    expect(JSON.parse(verified)).toMatchObject({ type: 'alert.fired', data: { rule_id: 'p95-latency' } });

    // Still breaching: the next pass appends nothing.
    expect((await evaluateRules(query.runtime.database(), query.runtime.log(), query.clock.now())).events).toBe(0);
  });

  it('recovery resolves the alert and the incident, noting it on the incident, and notifies', async () => {
    query.clock.advance(600_000);
    await query.project(turns(800, 20, new Date(query.clock.now().getTime() - 60_000)));
    expect((await evaluateRules(query.runtime.database(), query.runtime.log(), query.clock.now())).events).toBe(2);
    await query.project([]);
    const [alert] = (await query.get('/alerts', acme.apiKey)).json().items;
    expect(alert).toMatchObject({ status: 'resolved', resolution: 'recovered', resolvedBy: 'alerting' });
    const [incident] = (await query.get('/incidents', acme.apiKey)).json().items;
    expect(incident.status).toBe('resolved');
    expect(incident.notes.map((n: { note: string }) => n.note).join('\n')).toContain(`alert ${alert.id} resolved`);
    await until(
      async () => hook.received.map((r) => JSON.parse(r.body).type as string),
      (types) => types.includes('alert.resolved'),
    );
  });

  it('pages the notification attempts as every list pages: by cursor or page number, none skipped or repeated', async () => {
    // An attempt is recorded once its answer is in, a moment after the hook has the request.
    const all = await until(
      async () => (await query.get('/alerts/notifications?limit=200', acme.apiKey)).json(),
      (page) => page.items.length >= 3,
    );
    expect(all.nextCursor).toBeNull();
    expect(all.items.length).toBeGreaterThanOrEqual(3);
    const ids: string[] = [];
    let cursor = '';
    do {
      const page = (await query.get(`/alerts/notifications?limit=1${cursor ? `&cursor=${cursor}` : ''}`, acme.apiKey)).json();
      ids.push(...page.items.map((i: { id: string }) => i.id));
      cursor = page.nextCursor ?? '';
    } while (cursor);
    expect(ids).toEqual(all.items.map((i: { id: string }) => i.id));
    expect((await query.get('/alerts/notifications?limit=1&page=2', acme.apiKey)).json()).toMatchObject({ items: [{ id: ids[1] }], page: 2, nextPage: 3 });
  });

  it('removes the webhook on DELETE: GET then shows none, and a later PUT sets it again', async () => {
    const webhook = (method: 'GET' | 'DELETE' | 'PUT', payload?: object) =>
      query.app.inject({ method, url: '/api/v1/alerts/webhook', payload, headers: { authorization: `Bearer ${acme.apiKey}` } });
    expect((await webhook('GET')).json()).toMatchObject({ url: hook.url, enabled: true });
    const removed = await webhook('DELETE');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ ok: true, url: null, enabled: false, updatedAt: null });
    expect((await webhook('GET')).json()).toEqual({ ok: true, url: null, enabled: false, updatedAt: null });
    expect((await webhook('PUT', { url: hook.url, enabled: false })).json()).toMatchObject({ url: hook.url, enabled: false });
  });
});
