import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventData } from '@earshot/contracts';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { pageOf, pagingOf } from '@earshot/server';
import { logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { alertRuleRow, alertRuleRows, enabledAlertRuleRows } from './alert-rules.queries';

const tenant = randomUUID();
const changed = (id: string, minute: number, data: Partial<EventData<'alert.rule.changed'>>) =>
  sampleEvent('alert.rule.changed', {
    tenant,
    idempotency_key: `${id}:${minute}`,
    occurred_at: `2026-01-08T09:${String(minute).padStart(2, '0')}:00.000Z`,
    data: { rule_id: id, ...data },
  });

describe('the alert rules read model’s queries', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;

  beforeAll(async () => {
    store = await readModelStore('alert_rule_queries');
    db = store.db;
    const events = [
      changed('rule-a', 1, { action: 'created' }),
      changed('rule-b', 2, { action: 'created', enabled: false }),
      changed('rule-c', 3, { action: 'created' }),
      changed('rule-c', 4, { action: 'deleted', enabled: false }),
      changed('rule-d', 5, { action: 'created', threshold: 900 }),
      changed('rule-d', 6, { action: 'updated', threshold: 800 }),
    ];
    // Another tenant's rule: row-level security keeps it out of every query.
    const other = sampleEvent('alert.rule.changed', { tenant: randomUUID(), idempotency_key: 'other', data: { rule_id: 'rule-0' } });
    await store.apply(logRecords([...events, other], 0n));
  });
  afterAll(() => store?.close());

  it('pages the live rules by id, deleted ones left out', async () => {
    const kinds = { value: 'none', id: 'text' } as const;
    const paging = pagingOf({ limit: 2 }, kinds);
    const first = await inTenant(db, tenant, (tx) => alertRuleRows(tx, paging));
    // limit + 1 rows: the extra one says another page exists.
    expect(first.map((r) => r.id)).toEqual(['rule-a', 'rule-b', 'rule-d']);
    const { nextCursor } = pageOf(
      first,
      paging,
      (r) => ({ v: r.id, id: r.id }),
      (r) => r.id,
    );
    const next = await inTenant(db, tenant, (tx) => alertRuleRows(tx, pagingOf({ limit: 2, cursor: nextCursor ?? undefined }, kinds)));
    expect(next.map((r) => r.id)).toEqual(['rule-d']);
  });

  it('reads one live rule as its latest change left it, and no deleted one', async () => {
    const rule = await inTenant(db, tenant, (tx) => alertRuleRow(tx, 'rule-d'));
    expect(rule).toMatchObject({ id: 'rule-d', threshold: 800, enabled: true });
    expect(await inTenant(db, tenant, (tx) => alertRuleRow(tx, 'rule-c'))).toBeUndefined();
    expect(await inTenant(db, tenant, (tx) => alertRuleRow(tx, 'rule-0'))).toBeUndefined();
  });

  it('gives the evaluator the live, enabled rules only', async () => {
    const rules = await inTenant(db, tenant, (tx) => enabledAlertRuleRows(tx));
    expect(rules.map((r) => r.id).sort()).toEqual(['rule-a', 'rule-d']);
  });
});
