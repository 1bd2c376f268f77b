import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@earshot/contracts';
import { callScript, waitUntilCaughtUp, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

const DEPLOYED_AT = Date.parse('2026-03-10T12:00:00Z');
const MINUTE = 60_000;

/** The same calls with the LLM slower by `ms` on every turn: the regression a bad release brings. */
function slowerLlm(events: readonly StoredEvent[], ms: number): StoredEvent[] {
  return events.map((e) =>
    e.type === 'agent.response.generated' && e.data.latency
      ? { ...e, data: { ...e.data, latency: { ...e.data.latency, llm_ms: (e.data.latency.llm_ms ?? 0) + ms, total_ms: (e.data.latency.total_ms ?? 0) + ms } } }
      : e,
  );
}

type Metric = {
  metric: string;
  before: { value: number | null; samples: number };
  after: { value: number | null; samples: number };
  significant: boolean;
  regression: boolean;
  change: number | null;
};

describe('GET /deployments/{id}/impact', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;
  let deploymentId: string;

  beforeAll(async () => {
    query = await startTestQuery('deployment-impact');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    deploymentId = (
      await query.post('/deployments', acme.apiKey, {
        agent: 'agent_support',
        version: 'v43',
        previousVersion: 'v42',
        deployedAt: new Date(DEPLOYED_AT).toISOString(),
      })
    ).json().id;
    const before = Array.from({ length: 8 }, (_, i) =>
      callScript({ tenant: acme.id, providerCallId: `before-${i}`, turns: 10, startMs: DEPLOYED_AT - 55 * MINUTE + i * 6 * MINUTE }),
    );
    // After the release: every turn 1.5 s slower in the LLM, and every call fails.
    const after = Array.from({ length: 8 }, (_, i) =>
      slowerLlm(
        callScript({ tenant: acme.id, providerCallId: `after-${i}`, turns: 10, startMs: DEPLOYED_AT + 2 * MINUTE + i * 6 * MINUTE, ending: 'failed' }),
        1_500,
      ),
    );
    // Another agent, unchanged, in the same windows: not part of this deployment's report.
    const other = callScript({ tenant: acme.id, providerCallId: 'other', agentId: 'agent_sales', turns: 10, startMs: DEPLOYED_AT + 5 * MINUTE });
    await query.project([...before.flat(), ...after.flat(), ...other]);
    await waitUntilCaughtUp(query.runtime.database(), query.runtime.log());
  });
  afterAll(async () => query?.stop());

  it('shows a regression injected after the deployment as significant: slower LLM and total latency, lower success rate', async () => {
    const response = await query.get(`/deployments/${deploymentId}/impact?windowMinutes=60`, acme.apiKey);
    expect(response.statusCode).toBe(200);
    const impact = response.json();
    expect(impact.deployment).toMatchObject({ id: deploymentId, agent: 'agent_support', version: 'v43', deployedAt: '2026-03-10T12:00:00.000Z' });
    expect(impact.before).toEqual({ from: '2026-03-10T11:00:00.000Z', to: '2026-03-10T12:00:00.000Z' });
    const metric = (name: string) => (impact.metrics as Metric[]).find((m) => m.metric === name);
    for (const name of ['latency.llm_ms.p95', 'latency.total_ms.p95']) {
      expect(metric(name), name).toMatchObject({ significant: true, regression: true, before: { samples: 80 }, after: { samples: 80 } });
      expect(metric(name)?.change, name).toBeGreaterThan(1_000);
    }
    expect(metric('latency.asr_ms.p95')).toMatchObject({ significant: false, regression: false, change: 0 });
    expect(metric('calls.success_rate')).toMatchObject({
      before: { value: 1, samples: 8 },
      after: { value: 0, samples: 8 },
      significant: true,
      regression: true,
    });
  });

  it('finds no regression in the window before anything changed, answers 404 to another tenant and 400 for a bad window', async () => {
    const earlier = (
      await query.post('/deployments', acme.apiKey, { agent: 'agent_support', version: 'v42', deployedAt: new Date(DEPLOYED_AT - 30 * MINUTE).toISOString() })
    ).json().id;
    await waitUntilCaughtUp(query.runtime.database(), query.runtime.log());
    const calm = (await query.get(`/deployments/${earlier}/impact?windowMinutes=25`, acme.apiKey)).json();
    expect((calm.metrics as Metric[]).filter((m) => m.regression)).toEqual([]);
    expect((await query.get(`/deployments/${deploymentId}/impact`, globex.apiKey)).json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect((await query.get(`/deployments/${deploymentId}/impact?windowMinutes=1`, acme.apiKey)).json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
  });
});
