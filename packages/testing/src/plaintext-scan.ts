import { sql, type Queryable } from '@earshot/db';

export interface PlaintextFinding {
  table: string;
  /** The first characters of the secret found, enough to tell which. */
  secret: string;
  encoding: 'text' | 'hex';
}

/**
 * Every row of every table of the database (all schemas but the system's)
 * as text, searched for each secret in the clear and hex-encoded (how a
 * bytea column shows plaintext bytes). Answers what was found, and the
 * tables searched.
 */
export async function scanForPlaintext(db: Queryable, secrets: readonly string[]): Promise<{ tables: string[]; findings: PlaintextFinding[] }> {
  const tables = (await db.query(sql`
    select table_schema as schema, table_name as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`)) as { schema: string; name: string }[];
  const findings: PlaintextFinding[] = [];
  for (const table of tables) {
    const rows = (await db.query(sql`select t::text as row from ${sql.ident(table.schema, table.name)} t`)) as { row: string }[];
    const text = rows.map((r) => r.row).join('\n');
    for (const secret of secrets) {
      if (text.includes(secret)) findings.push({ table: table.name, secret: secret.slice(0, 12), encoding: 'text' });
      if (text.includes(Buffer.from(secret).toString('hex'))) findings.push({ table: table.name, secret: secret.slice(0, 12), encoding: 'hex' });
    }
  }
  return { tables: tables.map((t) => t.name), findings };
}
