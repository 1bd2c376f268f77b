import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventData } from '@earshot/contracts';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { pageOf, pagingOf, type Paging } from '@earshot/server';
import { logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { deploymentRow, deploymentRows, type DeploymentRow } from './deployments.queries';

const tenant = randomUUID();
const KINDS = { value: 'time', id: 'text' } as const;
const recorded = (id: string, deployedAt: string, data: Partial<EventData<'deployment.recorded'>> = {}, recordedMinute = 0) =>
  sampleEvent('deployment.recorded', {
    tenant,
    idempotency_key: `${id}:${recordedMinute}`,
    occurred_at: `2026-01-09T10:${String(recordedMinute).padStart(2, '0')}:00.000Z`,
    data: { deployment_id: id, deployed_at: deployedAt, ...data },
  });

describe('the deployments read model’s queries', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;
  const rows = (paging: Paging, agent?: string) => inTenant(db, tenant, (tx) => deploymentRows(tx, { agent }, paging));
  // The cursor the route hands out after a page, as GET /deployments builds it.
  const cursorAfter = (page: DeploymentRow[], paging: Paging) =>
    pageOf(
      page,
      paging,
      (r) => ({ v: r.deployed_at.toISOString(), id: r.id }),
      (r) => r.id,
    ).nextCursor ?? undefined;

  beforeAll(async () => {
    store = await readModelStore('deployment_queries');
    db = store.db;
    const events = [
      recorded('dep_1', '2026-01-05T09:00:00.000Z', { agent: 'agent_a', version: 'v1', previous_version: null }),
      // dep_2 and dep_3 went out at the same instant: the id breaks the tie, ascending.
      recorded('dep_3', '2026-01-06T09:00:00.000Z', { agent: 'agent_b', version: 'v7' }),
      recorded('dep_2', '2026-01-06T09:00:00.000Z', { agent: 'agent_a', version: 'v2' }),
      recorded('dep_4', '2026-01-07T09:00:00.000Z', { agent: 'agent_a', version: 'v3', environment: 'staging' }),
      // A corrected record of dep_4 (later stamp) replaces it, moving it in time too.
      recorded('dep_4', '2026-01-08T09:00:00.000Z', { agent: 'agent_a', version: 'v3.1', environment: 'production', deployed_by: null }, 5),
    ];
    // Another tenant's deployment with the id of one of ours: row-level security keeps it out.
    const other = sampleEvent('deployment.recorded', {
      tenant: randomUUID(),
      idempotency_key: 'other',
      data: { deployment_id: 'dep_1', agent: 'agent_a', deployed_at: '2026-01-09T09:00:00.000Z' },
    });
    const outcome = await store.apply(logRecords([...events, other], 0n));
    expect(outcome).toMatchObject({ applied: 6, deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('pages the deployments newest first, the id breaking ties, a corrected record in its new place', async () => {
    const first = pagingOf({ limit: 2 }, KINDS);
    const page1 = await rows(first);
    // limit + 1 rows: the extra one says another page exists.
    expect(page1.map((r) => r.id)).toEqual(['dep_4', 'dep_2', 'dep_3']);
    const second = pagingOf({ limit: 2, cursor: cursorAfter(page1, first) }, KINDS);
    const page2 = await rows(second);
    expect(page2.map((r) => r.id)).toEqual(['dep_3', 'dep_1']);
    expect(cursorAfter(page2, second)).toBeUndefined();
  });

  it('filters by agent, and pages within the filter', async () => {
    const first = pagingOf({ limit: 2 }, KINDS);
    const page1 = await rows(first, 'agent_a');
    expect(page1.map((r) => r.id)).toEqual(['dep_4', 'dep_2', 'dep_1']);
    const page2 = await rows(pagingOf({ limit: 2, cursor: cursorAfter(page1, first) }, KINDS), 'agent_a');
    expect(page2.map((r) => r.id)).toEqual(['dep_1']);
    expect(await rows(first, 'agent_nobody')).toEqual([]);
  });

  it('pages by page number from the top', async () => {
    expect((await rows(pagingOf({ limit: 2, page: 2 }, KINDS))).map((r) => r.id)).toEqual(['dep_3', 'dep_1']);
    expect(await rows(pagingOf({ limit: 2, page: 3 }, KINDS))).toEqual([]);
  });

  it('reads one deployment as its latest record left it', async () => {
    expect(await inTenant(db, tenant, (tx) => deploymentRow(tx, 'dep_4'))).toEqual({
      id: 'dep_4',
      agent: 'agent_a',
      version: 'v3.1',
      deployed_at: new Date('2026-01-08T09:00:00.000Z'),
      previous_version: 'v41',
      environment: 'production',
      description: 'Shorter greeting; invoice lookup tool moved to the billing API v2.',
      deployed_by: null,
    });
    expect(await inTenant(db, tenant, (tx) => deploymentRow(tx, 'dep_1'))).toMatchObject({ version: 'v1', previous_version: null });
  });

  it('finds nothing for an id the tenant does not have, nor any row for another tenant', async () => {
    expect(await inTenant(db, tenant, (tx) => deploymentRow(tx, 'dep_9'))).toBeUndefined();
    const stranger = randomUUID();
    expect(await inTenant(db, stranger, (tx) => deploymentRows(tx, {}, pagingOf({ limit: 10 }, KINDS)))).toEqual([]);
    expect(await inTenant(db, stranger, (tx) => deploymentRow(tx, 'dep_1'))).toBeUndefined();
  });
});
