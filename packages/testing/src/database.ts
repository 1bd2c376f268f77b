import { randomBytes } from 'node:crypto';
import { openDatabase, sql, type ConnectionPool } from '@earshot/db';
import { databaseUrl } from './infra';

/**
 * A fresh database per test file, so files run side by side on one server; on the server `on` names (a bench's,
 * outside the test runner), the test run's by default.
 */
export async function createTestDatabase(label: string, on: string = databaseUrl()): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `t_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = openDatabase({ url: on, poolSize: 1, applicationName: 'test-admin' });
  await admin.query(sql`create database ${sql.ident(name)}`);
  await admin.dispose();
  const url = new URL(on);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const again = openDatabase({ url: on, poolSize: 1, applicationName: 'test-admin' });
      await again.query(sql`drop database if exists ${sql.ident(name)} with (force)`);
      await again.dispose();
    },
  };
}

export async function openTestDatabase(label: string): Promise<{ db: ConnectionPool; url: string; close: () => Promise<void> }> {
  const created = await createTestDatabase(label);
  const db = openDatabase({ url: created.url, poolSize: 10, applicationName: `test-${label}` });
  return {
    db,
    url: created.url,
    close: async () => {
      await db.dispose();
      await created.drop();
    },
  };
}
