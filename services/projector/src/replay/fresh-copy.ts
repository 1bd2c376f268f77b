import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql, type ConnectionPool } from '@earshot/db';
import { READ_MODEL_MIGRATIONS } from '../store/migration-sets';

/**
 * Builds an empty copy of the read models in `schema` from the very migration
 * files that built the live ones: unqualified names land in the first schema
 * on the search path.
 */
export async function createFreshCopy(db: ConnectionPool, schema: string): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(sql`create schema ${sql.ident(schema)}`);
    // Without usage on the schema, the projector role's unqualified names would silently resolve to the live tables.
    await tx.query(sql`grant usage on schema ${sql.ident(schema)} to earshot_projector`);
    await tx.query(sql`select set_config('search_path', ${`${schema}, public`}, true)`);
    for (const set of READ_MODEL_MIGRATIONS) {
      const files = (await readdir(fileURLToPath(set.directory))).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
      for (const file of files) await tx.query(sql.__dangerous__rawValue(await readFile(new URL(file, set.directory), 'utf8')));
    }
  });
}

/** The tables of a copy: what a swap moves. */
export async function tablesOf(db: ConnectionPool, schema: string): Promise<string[]> {
  const rows = (await db.query(sql`select tablename from pg_tables where schemaname = ${schema} order by tablename`)) as { tablename: string }[];
  return rows.map((r) => r.tablename);
}
