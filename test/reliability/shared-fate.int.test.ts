import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, ingestHeaders, recordFigure, startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';

/**
 * The attacker/victim case of issue #20: a NUL in one tenant's idempotency
 * key, in the same group-committed claim statement as another tenant's
 * requests, failed those requests with 503 (8 of 72 before the fix).
 */
describe('one tenant’s bad request beside another’s', () => {
  let gateway: TestGateway;
  let victim: TenantCredentials;
  let attacker: TenantCredentials;

  beforeAll(async () => {
    gateway = await startTestGateway('shared-fate', {
      env: { EARSHOT_INGEST_REQUESTS_PER_MIN: '100000', EARSHOT_INGEST_EVENTS_PER_MIN: '1000000', EARSHOT_KEY_REQUESTS_PER_MIN: '100000' },
    });
    victim = await gateway.createTenant('Victim');
    attacker = await gateway.createTenant('Attacker');
  });
  afterAll(async () => gateway?.stop());

  const send = (credentials: TenantCredentials, value: unknown) => {
    const body = JSON.stringify(value);
    return gateway.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/ingest',
      payload: body,
      headers: ingestHeaders({ body, credentials, timestamp: gateway.clock.seconds() }),
    });
  };

  it('fails none of the victim’s requests in 12 rounds of 6 beside 2 with a NUL in idempotency_key', async ({ task }) => {
    const victimStatuses: number[] = [];
    const attackerAnswers: { statusCode: number; body: string }[] = [];
    for (let round = 0; round < 12; round++) {
      const victims = Array.from({ length: 6 }, (_, i) => send(victim, envelope(`victim-${round}-${i}`)));
      const attacks = Array.from({ length: 2 }, (_, i) => send(attacker, envelope(`evil-${round}-${i}\u0000`)));
      const [v, a] = await Promise.all([Promise.all(victims), Promise.all(attacks)]);
      victimStatuses.push(...v.map((r) => r.statusCode));
      attackerAnswers.push(...a.map((r) => ({ statusCode: r.statusCode, body: r.body })));
    }
    const failures = victimStatuses.filter((s) => s !== 202).length;
    recordFigure(task, `${failures} of ${victimStatuses.length} victim requests failed`);
    expect(failures).toBe(0);
    for (const answer of attackerAnswers) {
      expect(answer.statusCode).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', fields: [{ path: 'idempotency_key' }] });
    }
  });
});
