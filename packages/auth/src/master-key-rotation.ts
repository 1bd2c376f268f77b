import { inPlatform, inTenant, sql, type ConnectionPool, type Queryable, type SQLQuery } from '@earshot/db';
import type { SecretBox } from './secret-box';

/** Columns of one table whose values are sealed under the master key. */
export interface SealedColumns {
  table: string;
  /** A column unique among the rows taken: batches walk it in order, through its index. */
  id: string;
  columns: readonly string[];
  /** Only these rows (data keys: the tenants' own, which the master key wraps; call keys are wrapped by those). */
  where?: SQLQuery;
  /** Under row-level security: each tenant's rows are re-wrapped in a transaction as that tenant. */
  perTenant?: boolean;
  /** Under forced row-level security with a platform policy: re-wrapped as the platform role, which sees every tenant's rows. */
  platform?: boolean;
}

/** What auth seals under the master key: tenants' data keys and webhook secrets. */
export const AUTH_SEALED_COLUMNS: readonly SealedColumns[] = [
  { table: 'data_keys', id: 'tenant_id', columns: ['wrapped'], where: sql`call_id is null`, platform: true },
  { table: 'tenants', id: 'id', columns: ['webhook_secret', 'previous_webhook_secret'] },
];

export interface RotationProgress {
  table: string;
  /** Rows of the table looked at so far, and in all. */
  rows: number;
  total: number;
  /** Values sealed again under the new key, and values found sealed under it already (by a run before, or a process since). */
  rewrapped: number;
  current: number;
}

export interface RotationOptions {
  /** Boxes of one key each: the key being retired, and its successor. */
  from: SecretBox;
  to: SecretBox;
  batchSize?: number;
  onProgress?: (progress: RotationProgress) => void;
}

type SealedRow = Record<string, Buffer | string | null>;

/**
 * Re-wraps every value sealed under `from` so it opens under `to`, one
 * transaction per batch of rows (locked while they change). A value that
 * opens under `to` already is left alone, so a run that stopped half way
 * is simply run again. A value neither key opens stops the run: it names
 * the row, and nothing after it has changed. The log is never touched:
 * events are sealed with data keys, and only their wrapping changes.
 */
export async function rotateMasterKey(db: ConnectionPool, sealed: readonly SealedColumns[], options: RotationOptions): Promise<RotationProgress[]> {
  const batchSize = options.batchSize ?? 500;
  const done: RotationProgress[] = [];
  for (const spec of sealed) {
    const where = spec.where ?? sql`true`;
    const tenants = spec.perTenant ? ((await db.query(sql`select id::text as id from tenants order by id`)) as { id: string }[]).map((t) => t.id) : [null];
    const inScope = <T>(tenant: string | null, work: (tx: Queryable) => Promise<T>): Promise<T> =>
      tenant !== null ? inTenant(db, tenant, work) : spec.platform ? inPlatform(db, work) : db.tx(work);
    let total = 0;
    for (const tenant of tenants)
      total += await inScope(tenant, async (tx) => {
        const [row] = (await tx.query(sql`select count(*)::int as count from ${sql.ident(spec.table)} where ${where}`)) as { count: number }[];
        return row?.count ?? 0;
      });
    const progress: RotationProgress = { table: spec.table, rows: 0, total, rewrapped: 0, current: 0 };
    options.onProgress?.({ ...progress });
    for (const tenant of tenants) {
      let after: string | null = null;
      for (;;) {
        const cursor: string | null = after;
        const rows: SealedRow[] = await inScope(tenant, (tx) => rewrapBatch(tx, spec, where, cursor, batchSize, options, progress));
        if (rows.length === 0) break;
        after = String(rows[rows.length - 1]?.[spec.id]);
        progress.rows += rows.length;
        options.onProgress?.({ ...progress });
      }
    }
    done.push(progress);
  }
  return done;
}

async function rewrapBatch(
  tx: Queryable,
  spec: SealedColumns,
  where: SQLQuery,
  after: string | null,
  batchSize: number,
  { from, to }: RotationOptions,
  progress: RotationProgress,
): Promise<SealedRow[]> {
  const id = sql.ident(spec.id);
  const rows = (await tx.query(sql`
    select ${id}, ${sql.join(
      spec.columns.map((c) => sql.ident(c)),
      ', ',
    )}
      from ${sql.ident(spec.table)}
     where ${where} and ${after === null ? sql`true` : sql`${id} > ${after}`}
     order by ${id} limit ${batchSize} for update`)) as SealedRow[];
  for (const row of rows) {
    const changes: SQLQuery[] = [];
    for (const column of spec.columns) {
      const value = row[column];
      if (!Buffer.isBuffer(value)) continue;
      if (opens(to, value)) {
        progress.current += 1;
        continue;
      }
      let plaintext: string;
      try {
        plaintext = from.open(value);
      } catch {
        throw new Error(`${spec.table} ${String(row[spec.id])}: ${column} opens under neither the old nor the new master key`);
      }
      changes.push(sql`${sql.ident(column)} = ${to.seal(plaintext)}`);
      progress.rewrapped += 1;
    }
    if (changes.length > 0) await tx.query(sql`update ${sql.ident(spec.table)} set ${sql.join(changes, ', ')} where ${where} and ${id} = ${row[spec.id]}`);
  }
  return rows;
}

function opens(box: SecretBox, value: Buffer): boolean {
  try {
    box.open(value);
    return true;
  } catch {
    return false;
  }
}
