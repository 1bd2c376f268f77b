import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql, type ConnectionPool } from '@databases/pg';

/**
 * A set of SQL migrations owned by one module (a service or a package), in a
 * folder of `NNNN_name.sql` files applied in name order. Each file runs in its
 * own transaction; an advisory lock lets several processes boot at once.
 */
export interface MigrationSet {
  module: string;
  directory: URL;
}

const LOCK_KEY = 7_420_260_101;

export async function migrate(db: ConnectionPool, sets: readonly MigrationSet[]): Promise<string[]> {
  const applied: string[] = [];
  await db.tx(async (tx) => {
    await tx.query(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    await tx.query(sql`
      create table if not exists earshot_migrations (
        module text not null,
        name text not null,
        applied_at timestamptz not null default now(),
        primary key (module, name)
      )`);
    for (const set of sets) {
      const done = new Set((await tx.query(sql`select name from earshot_migrations where module = ${set.module}`)).map((r: { name: string }) => r.name));
      for (const name of await migrationFiles(set.directory)) {
        if (done.has(name)) continue;
        const text = await readFile(new URL(name, set.directory), 'utf8');
        await tx.query(sql.__dangerous__rawValue(text));
        await tx.query(sql`insert into earshot_migrations (module, name) values (${set.module}, ${name})`);
        applied.push(`${set.module}/${name}`);
      }
    }
  });
  return applied;
}

async function migrationFiles(directory: URL): Promise<string[]> {
  const files = await readdir(fileURLToPath(directory));
  return files.filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
}
