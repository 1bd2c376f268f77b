import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { pageOf, pagingOf, type Paging } from '@earshot/server';
import { callScript, logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { agentRows, type AgentRow } from './agents.queries';

const tenant = randomUUID();
const KINDS = { value: 'none', id: 'text' } as const;
const START = Date.parse('2026-01-08T09:00:00.000Z');
// callScript's call.started comes 2.5 s after the ring: the call's started_at.
const STARTED = (startMs: number) => new Date(startMs + 2_500);
const deployed = (id: string, agent: string, version: string, deployedAt: string) =>
  sampleEvent('deployment.recorded', { tenant, idempotency_key: id, data: { deployment_id: id, agent, version, deployed_at: deployedAt } });

describe('the agents query (calls and deployments)', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;
  const rows = (paging: Paging) => inTenant(db, tenant, (tx) => agentRows(tx, paging));
  // The cursor GET /agents hands out after a page: the last agent's id.
  const cursorAfter = (page: AgentRow[], paging: Paging) =>
    pageOf(
      page,
      paging,
      (r) => ({ v: r.id, id: r.id }),
      (r) => r.id,
    ).nextCursor ?? undefined;

  beforeAll(async () => {
    store = await readModelStore('agent_queries');
    db = store.db;
    const events = [
      // agent_b has calls and deployments; agent_a and agent_c deployments only; agent_d calls only.
      ...callScript({ tenant, providerCallId: 'call-1', agentId: 'agent_b', turns: 1, startMs: START }),
      ...callScript({ tenant, providerCallId: 'call-2', agentId: 'agent_b', turns: 1, startMs: START + 3_600_000 }),
      ...callScript({ tenant, providerCallId: 'call-3', agentId: 'agent_d', turns: 1, startMs: START + 600_000, ending: 'silent' }),
      deployed('dep_a1', 'agent_a', 'v1', '2026-01-01T09:00:00.000Z'),
      deployed('dep_a2', 'agent_a', 'v2', '2026-01-02T09:00:00.000Z'),
      deployed('dep_b1', 'agent_b', 'v7', '2026-01-03T09:00:00.000Z'),
      // Two deployments of agent_c at the same instant: the greater id is taken as the latest.
      deployed('dep_c1', 'agent_c', 'v4', '2026-01-04T09:00:00.000Z'),
      deployed('dep_c2', 'agent_c', 'v5', '2026-01-04T09:00:00.000Z'),
      // Another tenant's agents, one of them with a name ours use.
      ...callScript({ tenant: randomUUID(), providerCallId: 'elsewhere', agentId: 'agent_b', turns: 1, startMs: START }),
      sampleEvent('deployment.recorded', { tenant: randomUUID(), idempotency_key: 'other', data: { deployment_id: 'dep_x', agent: 'agent_0' } }),
    ];
    expect(await store.apply(logRecords(events, 0n))).toMatchObject({ deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('lists every agent the calls or deployments name, by id, with its calls, last call and latest version', async () => {
    expect(await rows(pagingOf({ limit: 10 }, KINDS))).toEqual([
      { id: 'agent_a', calls: 0, last_call_at: null, version: 'v2', deployed_at: new Date('2026-01-02T09:00:00.000Z') },
      { id: 'agent_b', calls: 2, last_call_at: STARTED(START + 3_600_000), version: 'v7', deployed_at: new Date('2026-01-03T09:00:00.000Z') },
      { id: 'agent_c', calls: 0, last_call_at: null, version: 'v5', deployed_at: new Date('2026-01-04T09:00:00.000Z') },
      { id: 'agent_d', calls: 1, last_call_at: STARTED(START + 600_000), version: null, deployed_at: null },
    ]);
  });

  it('pages by id with a cursor, and by page number', async () => {
    const first = pagingOf({ limit: 2 }, KINDS);
    const page1 = await rows(first);
    // limit + 1 rows: the extra one says another page exists.
    expect(page1.map((r) => r.id)).toEqual(['agent_a', 'agent_b', 'agent_c']);
    const second = pagingOf({ limit: 2, cursor: cursorAfter(page1, first) }, KINDS);
    const page2 = await rows(second);
    expect(page2).toMatchObject([
      { id: 'agent_c', calls: 0, version: 'v5' },
      { id: 'agent_d', calls: 1, version: null },
    ]);
    expect(cursorAfter(page2, second)).toBeUndefined();
    expect((await rows(pagingOf({ limit: 3, page: 2 }, KINDS))).map((r) => r.id)).toEqual(['agent_d']);
  });

  it('shows another tenant only its own agents, and a tenant with none an empty list', async () => {
    expect(await inTenant(db, randomUUID(), (tx) => agentRows(tx, pagingOf({ limit: 10 }, KINDS)))).toEqual([]);
  });
});
