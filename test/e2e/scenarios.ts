import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callIdOf } from '@earshot/events';
import { generateDemoTraffic, sendDemoTraffic, TENANT_PROVIDER, type CallFate, type DemoTarget, type DemoTraffic } from '@earshot/cli';
import type { Service, Topology } from './topologies';

interface Tenant {
  tenant: { id: string; name: string };
  apiKey: string;
  webhookSecret: string;
}

interface ListedCall {
  id: string;
  agentId: string;
  status: string;
  turnCount: number;
}

/** The status each fate must come out as (services/projector/README.md, "Call status"). */
const STATUS: Record<CallFate, string> = {
  completed: 'completed',
  handed_to_agent: 'completed',
  transferred: 'escalated',
  handed_to_human: 'escalated',
  abandoned: 'abandoned',
  failed: 'failed',
  in_progress: 'in_progress',
};

interface ExpectedCall {
  agentId: string;
  status: string;
  turns: number;
}

/** What GET /calls must show for the traffic: every call by Earshot's id, its status and its number of agent turns. */
function expectedCalls(tenantId: string, traffic: DemoTraffic): Map<string, ExpectedCall> {
  const expected = new Map<string, ExpectedCall>();
  for (const call of traffic.calls) {
    const turns = new Set(
      traffic.deliveries.flatMap((d) =>
        d.envelope.type === 'agent.response.generated' && d.envelope.call.provider_call_id === call.providerCallId ? [d.envelope.data.turn_id] : [],
      ),
    );
    expected.set(callIdOf(tenantId, call.provider, call.providerCallId), { agentId: call.agentId, status: STATUS[call.fate], turns: turns.size });
  }
  return expected;
}

/** The scenarios every topology must pass: the same code, handed the topology. */
export function describeScenarios(open: () => Promise<Topology>): void {
  let topology: Topology;

  beforeAll(async () => {
    topology = await open();
  }, 180_000);
  afterAll(async () => topology?.close(), 120_000);

  const call = async (service: Service, method: 'GET' | 'POST', path: string, token: string, body?: unknown) => {
    const response = await fetch(new URL(path, topology.url(service)), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const read = async <T>(tenant: Tenant, path: string): Promise<T> => {
    const answer = await call('query', 'GET', `/api/v1${path}`, tenant.apiKey);
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body as T;
  };
  const createTenant = async (name: string): Promise<Tenant> => {
    const answer = await call('keys', 'POST', '/api/v1/admin/tenants', topology.adminToken(), { name });
    expect(answer.status).toBe(201);
    return answer.body as unknown as Tenant;
  };
  const target = (tenant: Tenant): DemoTarget => ({
    url: topology.url('gateway'),
    outcomesUrl: topology.url('query'),
    apiKey: tenant.apiKey,
    webhookSecret: tenant.webhookSecret,
    tenantId: tenant.tenant.id,
  });
  const allCalls = async (tenant: Tenant): Promise<ListedCall[]> => {
    const calls: ListedCall[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: ListedCall[]; nextCursor: string | null } = await read(
        tenant,
        `/calls?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      calls.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return calls;
  };
  /** Polls GET /calls until every expected call shows, as expected; anything else there (a double, a loss) fails the comparison. */
  const projected = async (tenant: Tenant, expected: Map<string, ExpectedCall>) => {
    const want = [...expected].map(([id, c]) => ({ id, agentId: c.agentId, status: c.status, turnCount: c.turns })).sort((a, b) => a.id.localeCompare(b.id));
    let seen: unknown[] = [];
    for (let polls = 0; polls < 600; polls++) {
      seen = (await allCalls(tenant))
        .map(({ id, agentId, status, turnCount }) => ({ id, agentId, status, turnCount }))
        .sort((a, b) => a.id.localeCompare(b.id));
      if (JSON.stringify(seen) === JSON.stringify(want)) return;
      await sleep(200);
    }
    expect(seen, topology.output()).toEqual(want);
  };

  it('creates a tenant through the operator API, ingests signed realistic calls and serves them on every read route', async () => {
    const tenant = await createTenant('E2E Voice');
    const traffic = generateDemoTraffic({ seed: 101, calls: 12, now: Date.now() });
    const summary = await sendDemoTraffic(target(tenant), traffic, { eventsPerSecond: 5_000 });
    expect(summary).toMatchObject({
      deadLettered: 0,
      envelopes: traffic.deliveries.length,
      outcomes: { recorded: traffic.outcomes.length, via: 'POST /api/v1/outcomes' },
    });
    const expected = expectedCalls(tenant.tenant.id, traffic);
    await projected(tenant, expected);

    const completed = [...expected].filter(([, c]) => c.status === 'completed');
    const byStatus = await read<{ items: ListedCall[] }>(tenant, '/calls?status=completed&limit=50');
    expect(byStatus.items.map((c) => c.id).sort()).toEqual(completed.map(([id]) => id).sort());
    const [callId, expectedCall] = completed.sort(([, a], [, b]) => b.turns - a.turns)[0] ?? [];
    const detail = await read<{ call: { id: string; turns: unknown[]; transcript: unknown[]; traces: { kind: string }[]; latency: { totalMs: number } } }>(
      tenant,
      `/calls/${callId}`,
    );
    expect(detail.call).toMatchObject({ id: callId });
    expect(detail.call.turns).toHaveLength(expectedCall?.turns ?? -1);
    expect(detail.call.transcript.length).toBeGreaterThan(0);
    expect(detail.call.traces.map((t) => t.kind)).toContain('workflow_state');
    expect(detail.call.latency.totalMs).toBeGreaterThan(0);
    const missing = await call('query', 'GET', `/api/v1/calls/${randomUUID()}`, tenant.apiKey);
    expect(missing).toMatchObject({ status: 404, body: { ok: false, code: 'NOT_FOUND' } });

    for (let polls = 0; (await read<{ items: unknown[] }>(tenant, '/outcomes?limit=100')).items.length < traffic.outcomes.length && polls < 300; polls++)
      await sleep(200);
    expect((await read<{ items: unknown[]; source: string }>(tenant, '/outcomes?limit=100')).items).toHaveLength(traffic.outcomes.length);
    const inProgress = [...expected.values()].filter((c) => c.status === 'in_progress').length;
    expect(await read(tenant, '/realtime')).toMatchObject({ ok: true, live: { concurrentCalls: inProgress } });
    expect(await read(tenant, '/metrics?name=latency.total_ms.p95')).toMatchObject({ ok: true });
    for (const path of ['/incidents', '/alerts', '/deployments'])
      expect((await read<{ items: unknown[] }>(tenant, path)).items.length, path).toBeGreaterThan(0);
    expect((await read<{ items: { eventsIngested: number }[] }>(tenant, '/usage')).items.some((u) => u.eventsIngested > 0)).toBe(true);
    expect(JSON.stringify(await read(tenant, '/audit'))).toContain('tenant.created');

    // The delivery audit log holds one record per envelope delivered (copies included), and no dead letter.
    const deliveries = async () => {
      let count = 0;
      let cursor: string | null = null;
      do {
        const page = (
          await call(
            'audit',
            'GET',
            `/api/v1/admin/deliveries?tenantId=${tenant.tenant.id}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
            topology.adminToken(),
          )
        ).body as { items: unknown[]; nextCursor: string | null };
        count += page.items.length;
        cursor = page.nextCursor;
      } while (cursor);
      return count;
    };
    const tenantEnvelopes = summary.envelopes;
    for (let polls = 0; (await deliveries()) < tenantEnvelopes && polls < 300; polls++) await sleep(200);
    expect(await deliveries()).toBe(tenantEnvelopes);
    expect((await call('audit', 'GET', `/api/v1/admin/dead-letters?tenantId=${tenant.tenant.id}`, topology.adminToken())).body).toMatchObject({
      ok: true,
      items: [],
    });
    for (const service of ['gateway', 'query', 'audit'] as const) expect((await fetch(new URL('/health', topology.url(service)))).status).toBe(200);
  }, 240_000);

  it('loses and doubles nothing when the projection is interrupted (projector SIGKILLed, or the one process stopped) and started again', async () => {
    const tenant = await createTenant('E2E Interrupted');
    const traffic = generateDemoTraffic({ seed: 202, calls: 16, now: Date.now() });
    const half = Math.floor(traffic.deliveries.length / 2);
    const first = { ...traffic, deliveries: traffic.deliveries.slice(0, half), outcomes: [] };
    const second = { ...traffic, deliveries: traffic.deliveries.slice(half) };
    await sendDemoTraffic(target(tenant), first, { eventsPerSecond: 5_000 });
    await topology.interrupt();
    if (topology.ingestsWhileInterrupted) {
      await sendDemoTraffic(target(tenant), { ...second, outcomes: [] }, { eventsPerSecond: 5_000 });
      await topology.resume();
    } else {
      await topology.resume();
      await sendDemoTraffic(target(tenant), { ...second, outcomes: [] }, { eventsPerSecond: 5_000 });
    }
    await sendDemoTraffic(target(tenant), { ...traffic, deliveries: [] }, { eventsPerSecond: 5_000 });
    await projected(tenant, expectedCalls(tenant.tenant.id, traffic));
    for (let polls = 0; (await read<{ items: unknown[] }>(tenant, '/outcomes?limit=100')).items.length < traffic.outcomes.length && polls < 300; polls++)
      await sleep(200);
    expect((await read<{ items: unknown[] }>(tenant, '/outcomes?limit=100')).items).toHaveLength(traffic.outcomes.length);
    const incidents = await read<{ items: { status: string }[] }>(tenant, '/incidents');
    expect(incidents.items).toEqual([expect.objectContaining({ status: 'monitoring' })]);
    expect(traffic.deliveries.filter((d) => d.provider === TENANT_PROVIDER).length).toBeGreaterThan(0);
  }, 240_000);
}
