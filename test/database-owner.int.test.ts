import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, ownerInTenant, sql, type ConnectionPool } from '@earshot/db';
import { ADMIN_TOKEN, createTestDatabase, databaseUrl, kafkaBrokers, uniqueNamespace, type TenantCredentials } from '@earshot/testing';
import { cleanEnv, startEarshot, type EarshotProcess } from './e2e/earshot-process';

/**
 * Earshot connected as what deploy/README asks of a deployment: a role that
 * owns its database, may create roles and is not a superuser. The migrations
 * run and grant it the tenant, projector and platform roles, and forced
 * row-level security holds for the owner's own statements (a superuser's
 * would pass it). The cluster may already have those roles, as it has when
 * another Earshot database shares it: they are granted to the new owner
 * WITH ADMIN OPTION, INHERIT FALSE first, as deploy/README says. Inheriting
 * earshot_platform would put the owner under that role's see-every-row
 * policies, which this test catches.
 */
describe('a database owner that is not a superuser', () => {
  // Generated hex: safe to write into DDL, which takes no parameters.
  const role = `earshot_owner_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-owner-'));
  let admin: ConnectionPool;
  let owner: ConnectionPool;
  let drop: () => Promise<void>;
  let earshot: EarshotProcess;

  beforeAll(async () => {
    admin = openDatabase({ url: databaseUrl(), poolSize: 1, applicationName: 'test-owner-admin' });
    await admin.query(sql`create role ${sql.ident(role)} login createrole nosuperuser password ${sql.__dangerous__rawValue(`'${password}'`)}`);
    await admin.query(sql`
      do $$ declare existing text; begin
        for existing in select rolname from pg_roles where rolname in ('earshot_app', 'earshot_platform', 'earshot_projector') loop
          execute format('grant %I to %I with admin option, inherit false', existing, ${sql.__dangerous__rawValue(`'${role}'`)});
        end loop;
      end $$`);
    const database = await createTestDatabase('owner');
    drop = database.drop;
    await admin.query(sql`alter database ${sql.ident(database.name)} owner to ${sql.ident(role)}`);
    const url = new URL(database.url);
    url.username = role;
    url.password = password;
    earshot = await startEarshot(
      'all',
      cleanEnv({
        DATABASE_URL: url.toString(),
        KAFKA_BROKERS: kafkaBrokers().join(','),
        EARSHOT_LOG_NAMESPACE: uniqueNamespace('owner'),
        EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
        EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
        EARSHOT_DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      }),
    );
    owner = openDatabase({ url: url.toString(), poolSize: 1, applicationName: 'test-owner' });
  }, 180_000);

  afterAll(async () => {
    await earshot?.stop();
    await owner?.dispose();
    await drop?.();
    // The role is the grantor of the memberships the migrations made; the test cluster is disposable, so one left over is harmless.
    await admin?.query(sql`drop role if exists ${sql.ident(role)}`).catch(() => undefined);
    await admin?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates, serves a tenant, and is held by row-level security on its own statements', async () => {
    const [me] = (await owner.query(sql`select current_user as name, rolsuper from pg_roles where rolname = current_user`)) as {
      name: string;
      rolsuper: boolean;
    }[];
    expect(me).toEqual({ name: role, rolsuper: false });

    const created = await fetch(`${earshot.url}/api/v1/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Owner Probe' }),
    });
    expect(created.status).toBe(201);
    const tenant = (await created.json()) as TenantCredentials;
    const calls = await fetch(`${earshot.url}/api/v1/calls`, { headers: { authorization: `Bearer ${tenant.apiKey}` } });
    expect(calls.status).toBe(200);

    // Without a tenant set, forced row-level security shows the owner none of the tenant's keys; with it, that tenant's.
    const count = sql`select count(*)::int as n from api_keys`;
    expect(await owner.query(count)).toEqual([{ n: 0 }]);
    expect(await ownerInTenant(owner, tenant.tenant.id, (tx) => tx.query(count))).toEqual([{ n: 1 }]);
  });
});
