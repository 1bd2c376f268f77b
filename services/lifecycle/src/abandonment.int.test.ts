import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEvent } from '@earshot/events/samples';
import { rebuildReadModels } from '@earshot/projector';
import { ADMIN_TOKEN, callScript, readModelSnapshot, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';
import { abandonSilentCalls } from './abandonment';
import { LIFECYCLE_MIGRATIONS, lifecycleModule } from './lifecycle';

const HOUR = 3_600_000;

describe('calls whose provider stops sending', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let patient: QueryTenant;
  let start: number;

  const statusOf = async (tenant: QueryTenant, providerCallId: string) => {
    const page = (await query.get(`/calls?limit=50`, tenant.apiKey)).json<{ items: { providerCallId: string; status: string; endedAt: string | null }[] }>();
    return page.items.find((c) => c.providerCallId === providerCallId);
  };
  const sweep = () =>
    abandonSilentCalls({
      db: query.runtime.database(),
      log: query.runtime.log(),
      now: query.clock.now(),
      defaultAfterMs: query.runtime.config.EARSHOT_ABANDON_AFTER,
    });

  beforeAll(async () => {
    query = await startTestQuery('abandonment', {
      env: { EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN },
      migrations: LIFECYCLE_MIGRATIONS,
      // Rounds are driven by the test; the module's own timer stays out of the way.
      modules: (runtime) => [lifecycleModule(runtime, { abandonIntervalMs: 3_600_000 })],
    });
    acme = await query.createTenant('Acme');
    patient = await query.createTenant('Patient');
    start = query.clock.now().getTime();
    // A tenant whose calls may be silent for four hours.
    const put = await query.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/tenants/${patient.id}/data-settings`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { abandonAfterMs: 4 * HOUR },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      effective: { abandonAfterMs: 4 * HOUR, planId: 'default', retention: { deliveries: { keep: 30, from: 'deployment' } } },
    });
    await query.project([
      ...callScript({ tenant: acme.id, providerCallId: 'silent', turns: 2, ending: 'silent', startMs: start }),
      ...callScript({ tenant: acme.id, providerCallId: 'ended', turns: 2, startMs: start }),
      ...callScript({ tenant: patient.id, providerCallId: 'silent', turns: 2, ending: 'silent', startMs: start }),
    ]);
  });
  afterAll(async () => query?.stop());

  it('stays in progress until the silence passes the tenant’s setting, then reads abandoned, ended when it fell silent', async () => {
    query.clock.advance(HOUR);
    expect(await sweep()).toEqual({ abandoned: 0 });
    expect(await statusOf(acme, 'silent')).toMatchObject({ status: 'in_progress', endedAt: null });

    query.clock.advance(2 * HOUR);
    // Acme takes the deployment's 2 h; Patient's 4 h have not passed.
    expect(await sweep()).toEqual({ abandoned: 1 });
    await query.project([]);
    const silent = await statusOf(acme, 'silent');
    expect(silent?.status).toBe('abandoned');
    expect(Date.parse(silent?.endedAt ?? '')).toBeLessThan(start + 60_000);
    expect(await statusOf(acme, 'ended')).toMatchObject({ status: 'completed' });
    expect(await statusOf(patient, 'silent')).toMatchObject({ status: 'in_progress' });

    // A second round declares nothing again.
    expect(await sweep()).toEqual({ abandoned: 0 });
    query.clock.advance(2 * HOUR);
    expect(await sweep()).toEqual({ abandoned: 1 });
    await query.project([]);
    expect(await statusOf(patient, 'silent')).toMatchObject({ status: 'abandoned' });
  });

  it('reads the same after the read models are rebuilt from the log', async () => {
    const before = await readModelSnapshot(query.db, acme.id);
    await rebuildReadModels({ db: query.runtime.database(), log: query.runtime.log(), from: 'earliest' });
    expect(await readModelSnapshot(query.db, acme.id)).toEqual(before);
    expect(await statusOf(acme, 'silent')).toMatchObject({ status: 'abandoned' });
  });

  it('comes back in progress when an event that happened after the silence arrives late, and ends when its end arrives', async () => {
    const late = (type: 'transcript.final' | 'call.ended', at: number) =>
      sampleEvent(type, {
        tenant: acme.id,
        idempotency_key: `silent:late:${type}`,
        occurred_at: new Date(at).toISOString(),
        received_at: query.clock.now().toISOString(),
        call: { provider_call_id: 'silent', agent_id: 'agent_support' },
      });
    await query.project([late('transcript.final', start + HOUR)]);
    expect(await statusOf(acme, 'silent')).toMatchObject({ status: 'in_progress', endedAt: null });
    await query.project([late('call.ended', start + HOUR + 60_000)]);
    expect(await statusOf(acme, 'silent')).toMatchObject({ status: 'completed' });
  });
});
