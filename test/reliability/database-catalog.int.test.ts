import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '@earshot/db';
import { recordFigure, startEarshot, type TestEarshot } from '@earshot/testing';

/** The role every request's transaction takes (packages/db/migrations/0001_tenant_role.sql). */
const APP_ROLE = 'earshot_app';

/** The role of the platform's cross-tenant work (packages/db/migrations/0003_platform_role.sql). */
const PLATFORM_ROLE = 'earshot_platform';

/**
 * The tables the platform role sees whole, each for a reason: keys before a
 * tenant is known, claims and audit rows batched across tenants, the
 * operator's lists, data keys by id, the jobs' settings of every tenant. Exact,
 * so a new path across tenants is a decision this list records.
 */
const PLATFORM_TABLES = ['api_keys', 'data_keys', 'dead_letters', 'deliveries', 'erased_calls', 'idempotency_keys', 'tenant_data_settings'];

/**
 * PostgreSQL's own catalogue as the oracle, read after every service's
 * migrations ran (`earshot serve --target=all`): what row-level security
 * promises holds for every table and view there is, not only for those a
 * test happens to write.
 */
describe('the database catalogue after every migration', () => {
  let earshot: TestEarshot;

  beforeAll(async () => {
    earshot = await startEarshot('database-catalog');
  });
  afterAll(async () => earshot?.stop());

  it('forces row-level security on every table with a tenant_id, for roles that cannot bypass it', async ({ task }) => {
    const tables: { name: string; tenant: boolean; rls: boolean; forced: boolean; policies: number }[] = await earshot.db.query(sql`
      select c.relname as name,
             exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as tenant,
             c.relrowsecurity as rls, c.relforcerowsecurity as forced,
             (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')`);
    const tenantTables = tables.filter((table) => table.tenant);
    expect(tenantTables.length).toBeGreaterThan(10);
    const unforced = tenantTables.filter((table) => !table.rls || !table.forced || table.policies === 0).map((table) => table.name);
    expect(unforced).toEqual([]);
    const roles: { name: string; bypass: boolean; superuser: boolean; owns: number; inherited: boolean }[] = await earshot.db.query(sql`
      select r.rolname as name, r.rolbypassrls as bypass, r.rolsuper as superuser,
             (select count(*)::int from pg_class c where c.relowner = r.oid) as owns,
             exists (select 1 from pg_auth_members m where m.roleid = r.oid and m.member = current_user::regrole and m.inherit_option) as inherited
      from pg_roles r where r.rolname in (${APP_ROLE}, ${PLATFORM_ROLE}) order by r.rolname`);
    expect(roles.map(({ inherited, ...role }) => (role.name === PLATFORM_ROLE ? { ...role, inherited } : role))).toEqual([
      { name: APP_ROLE, bypass: false, superuser: false, owns: 0 },
      // The owner may switch to the platform role but does not hold its policies by membership.
      { name: PLATFORM_ROLE, bypass: false, superuser: false, owns: 0, inherited: false },
    ]);
    const platform: { name: string }[] = await earshot.db.query(sql`
      select distinct c.relname as name from pg_policy p join pg_class c on c.oid = p.polrelid
       where ${PLATFORM_ROLE}::regrole = any(p.polroles) order by c.relname`);
    expect(platform.map((table) => table.name)).toEqual(PLATFORM_TABLES);
    const shared = tables.filter((table) => !table.tenant).map((table) => table.name);
    recordFigure(
      task,
      `${tenantTables.length - unforced.length} of ${tenantTables.length} tenant tables forced, ${platform.length} seen whole by ${PLATFORM_ROLE}; ${shared.length} without tenant_id (${shared.sort().join(', ')})`,
    );
  });

  it('has no view without security_invoker and no SECURITY DEFINER function without a search_path', async ({ task }) => {
    const views: { name: string; invoker: boolean }[] = await earshot.db.query(sql`
      select c.relname as name, coalesce(c.reloptions::text[] && array['security_invoker=true', 'security_invoker=on'], false) as invoker
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('v', 'm')`);
    expect(views.filter((view) => !view.invoker).map((view) => view.name)).toEqual([]);
    const definers: { name: string; pinned: boolean }[] = await earshot.db.query(sql`
      select p.proname as name, coalesce(exists (select 1 from unnest(p.proconfig) setting where setting like 'search_path=%'), false) as pinned
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosecdef`);
    expect(definers.filter((definer) => !definer.pinned).map((definer) => definer.name)).toEqual([]);
    recordFigure(task, `${views.length} views, ${definers.length} SECURITY DEFINER functions, none unsafe`);
  });
});
