import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, TENANT_SETTING, type SQLQuery } from '@earshot/db';
import { callScript, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { deploymentDefaults, saveTenantSettings } from './data-settings';
import { applyRetention, dailyRetention } from './retention';

const DAY = 86_400_000;

describe('the retention job', () => {
  let earshot: TestEarshot;
  let short: EarshotTenant;
  let forever: EarshotTenant;
  const today = Date.now();

  /** Rows of a tenant's table, as the owner in the tenant's scope (forced row-level security shows nothing otherwise). */
  const inScope = (tenantId: string, query: SQLQuery) =>
    earshot.db.tx(async (tx) => {
      await tx.query(sql`select set_config(${TENANT_SETTING}, ${tenantId}, true)`);
      return tx.query(query);
    });
  const count = async (tenantId: string, table: string, extra = sql`true`) =>
    ((await inScope(tenantId, sql`select count(*)::int as n from ${sql.ident(table)} where tenant_id = ${tenantId} and ${extra}`)) as { n: number }[])[0]?.n;
  const options = (at: number) => ({
    db: earshot.runtime.database(),
    now: new Date(at),
    defaults: deploymentDefaults(earshot.runtime.config),
    dedupeWindowMs: earshot.runtime.config.EARSHOT_DEDUPE_WINDOW,
  });
  const run = (at: number) => applyRetention(options(at));
  const daily = (at: number) => dailyRetention(options(at));

  async function seed(tenant: EarshotTenant): Promise<void> {
    await earshot.project([
      ...callScript({ tenant: tenant.id, providerCallId: 'old', turns: 3, startMs: today - 100 * DAY }),
      ...callScript({ tenant: tenant.id, providerCallId: 'new', turns: 3, startMs: today - DAY }),
    ]);
    for (const ageDays of [45, 1])
      await inScope(
        tenant.id,
        sql`insert into deliveries (tenant_id, id, time, outcome, http_status, duration_ms) values (${tenant.id}, ${randomUUID()}, ${new Date(today - ageDays * DAY)}, 'accepted', 202, 3)`,
      );
    for (const ageDays of [500, 10])
      await inScope(
        tenant.id,
        sql`insert into audit_entries (tenant_id, id, at, actor_kind, action) values (${tenant.id}, ${randomUUID()}, ${new Date(today - ageDays * DAY)}, 'operator', 'test.seeded')`,
      );
    // The keys of the old call's events were applied long ago.
    await inScope(tenant.id, sql`update applied_events set applied_at = ${new Date(today - 30 * DAY)} where idempotency_key like '%old%'`);
  }

  beforeAll(async () => {
    earshot = await startEarshot('retention');
    short = await earshot.createTenant('Short Memory');
    forever = await earshot.createTenant('Keeps Everything');
    await saveTenantSettings(
      earshot.db,
      short.id,
      { abandonAfterMs: null, retention: { calls: 30, deliveries: null, deadLetters: null, auditEntries: 90 } },
      new Date(),
    );
    await saveTenantSettings(
      earshot.db,
      forever.id,
      { abandonAfterMs: null, retention: { calls: 'forever', deliveries: 'forever', deadLetters: null, auditEntries: 'forever' } },
      new Date(),
    );
    await seed(short);
    await seed(forever);
  });
  afterAll(async () => earshot.stop());

  it('trims what each tenant’s settings say and nothing more', async () => {
    const turns = await count(forever.id, 'turns');
    expect(turns).toBeGreaterThan(0);
    await run(today);

    expect(await count(short.id, 'calls')).toBe(1);
    expect(await count(short.id, 'calls', sql`provider_call_id = 'new'`)).toBe(1);
    expect(await count(short.id, 'turns')).toBe((turns ?? 0) / 2);
    expect(await count(short.id, 'transcripts', sql`call_id not in (select id from calls)`)).toBe(0);
    expect(await count(short.id, 'deliveries')).toBe(1);
    expect(await count(short.id, 'audit_entries', sql`action = 'test.seeded'`)).toBe(1);

    expect(await count(forever.id, 'calls')).toBe(2);
    expect(await count(forever.id, 'turns')).toBe(turns);
    expect(await count(forever.id, 'deliveries')).toBe(2);
    expect(await count(forever.id, 'audit_entries', sql`action = 'test.seeded'`)).toBe(2);
  });

  it('forgets applied-event keys older than the dedupe window only', async () => {
    expect(await count(forever.id, 'applied_events', sql`idempotency_key like '%old%'`)).toBe(0);
    expect(await count(forever.id, 'applied_events', sql`idempotency_key like '%new%'`)).toBeGreaterThan(0);
  });

  // Days ahead of the module's own daily pass (it runs at today's date), with a delivery that turns 30 days old on the way.
  const addDelivery = (tenant: EarshotTenant, at: number) =>
    inScope(
      tenant.id,
      sql`insert into deliveries (tenant_id, id, time, outcome, http_status, duration_ms) values (${tenant.id}, ${randomUUID()}, ${new Date(at)}, 'accepted', 202, 3)`,
    );

  it('runs once a day, and a later pass deletes nothing it already deleted', async () => {
    await addDelivery(short, today - 27 * DAY);
    const first = await daily(today + 5 * DAY);
    expect(first).toMatchObject({ ran: true, deleted: { calls: 0, deliveries: 1, deadLetters: 0, auditEntries: 0, appliedEvents: 0 } });
    expect(await daily(today + 5 * DAY)).toEqual({ ran: false, day: first.day });
    expect((await run(today + 6 * DAY)).deleted).toEqual({ calls: 0, deliveries: 0, deadLetters: 0, auditEntries: 0, appliedEvents: 0 });
  });

  it('is safe in two processes at once: the day is recorded once and nothing is deleted twice', async () => {
    await addDelivery(short, today - 28 * DAY);
    const both = await Promise.all([daily(today + 8 * DAY), daily(today + 8 * DAY)]);
    expect(both.reduce((sum, r) => sum + (r.ran ? r.deleted.deliveries : 0), 0)).toBe(1);
    const day = new Date(today + 8 * DAY).toISOString().slice(0, 10);
    expect(await earshot.db.query(sql`select day from retention_runs where day = ${day}`)).toHaveLength(1);
  });
});
