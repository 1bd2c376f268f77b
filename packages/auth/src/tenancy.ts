import type { TenantStatus, TenantSummary } from '@earshot/contracts';
import { ownerInTenant, platformQuery, retryingDeadlocks, sql, TENANT_SETTING, type ConnectionPool, type Queryable } from '@earshot/db';
import { noteCredentialChange } from './credential-changes';

export interface TenantFilter {
  status?: TenantStatus;
  /** After this tenant in oldest-first order. */
  after?: { createdAt: string; id: string };
  offset?: number;
  limit: number;
}

interface TenantRow {
  id: string;
  name: string;
  status: TenantStatus;
  created_at: Date;
  suspended_at: Date | null;
  active_keys: number;
}

/** Times to the millisecond, as cursors carry them. */
function tenants(now: Date) {
  return sql`
    select * from (
      select t.id, t.name, t.status, date_trunc('milliseconds', t.created_at) as created_at, t.suspended_at,
             (select count(*)::int from api_keys k where k.tenant_id = t.id and k.status = 'active' and (k.expires_at is null or k.expires_at > ${now})) as active_keys
        from tenants t
    ) r`;
}

function summaryOf(row: TenantRow): TenantSummary {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    suspendedAt: row.suspended_at?.toISOString() ?? null,
    activeKeys: row.active_keys,
  };
}

export async function getTenant(db: ConnectionPool, id: string, now: Date): Promise<TenantSummary | undefined> {
  const [row] = (await platformQuery(db, sql`${tenants(now)} where r.id = ${id}`)) as TenantRow[];
  return row && summaryOf(row);
}

/** Every tenant, oldest first (the operator's list). */
export async function listTenants(db: ConnectionPool, filter: TenantFilter, now: Date): Promise<TenantSummary[]> {
  const conditions = [
    filter.status === undefined ? sql`true` : sql`r.status = ${filter.status}`,
    filter.after === undefined ? sql`true` : sql`(r.created_at, r.id) > (${filter.after.createdAt}::timestamptz, ${filter.after.id}::uuid)`,
  ];
  const rows = (await platformQuery(
    db,
    sql`
    ${tenants(now)} where ${sql.join(conditions, ' AND ')} order by r.created_at, r.id limit ${filter.limit} offset ${filter.offset ?? 0}`,
  )) as TenantRow[];
  return rows.map(summaryOf);
}

/** Suspends a tenant (every key of it is refused, everywhere within a second) or lets it back in. */
export async function setTenantStatus(db: ConnectionPool, id: string, status: TenantStatus, now: Date): Promise<TenantSummary | undefined> {
  await db.query(sql`
    update tenants set status = ${status}, suspended_at = ${status === 'suspended' ? now : null}
     where id = ${id} and status <> ${status}`);
  noteCredentialChange();
  return getTenant(db, id, now);
}

/**
 * Tables whose rows of the tenant go apart from the deletion's one long transaction, in short transactions before it
 * (and after it, for what the tenant's requests wrote meanwhile), in this order. Any writer meeting a row the long
 * transaction had locked would wait for the whole deletion, and everyone sharing its statement or transaction too.
 * - data_keys: the tenant's events are shredded at once, so a projector batch finds them erased and writes none of
 *   the tenant's rows (it would otherwise hold its partition, every tenant's events in it, for the deletion's length);
 * - idempotency_keys: the gateway's claims go out in one statement for every tenant's requests in flight, and a
 *   claim of the tenant's (a provider retrying a delivery) would hold them all.
 */
const APART: readonly string[] = ['data_keys', 'idempotency_keys'];
/** Rows a short transaction deletes: its locks last milliseconds. */
const APART_CHUNK = 1_000;

/** Every table of the schema with a `tenant_id` column, whichever module owns it. */
async function tenantTables(db: Queryable): Promise<string[]> {
  const rows = (await db.query(sql`
    select c.relname as name
      from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped
     where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
     order by c.relname`)) as { name: string }[];
  return rows.map((row) => row.name);
}

/** The tenant's rows of these tables, a chunk a transaction; answers how many went. */
async function deleteApart(db: ConnectionPool, id: string, tables: readonly string[]): Promise<number> {
  let rows = 0;
  for (const table of tables)
    for (;;) {
      const [chunk] = (await ownerInTenant(db, id, (tx) =>
        tx.query(sql`
          with gone as (
            delete from ${sql.ident(table)} where ctid = any(array(select ctid from ${sql.ident(table)} where tenant_id = ${id} limit ${APART_CHUNK}))
            returning 1)
          select count(*)::int as rows from gone`),
      )) as { rows: number }[];
      rows += chunk?.rows ?? 0;
      if ((chunk?.rows ?? 0) < APART_CHUNK) break;
    }
  return rows;
}

/**
 * Deletes a tenant and its rows from every table of the schema that has a
 * `tenant_id` column, whichever module owns it, in one transaction, but for
 * the tables whose rows go apart (APART): the tenant's data keys first. The
 * tenant setting is set so that tables forcing row-level security show
 * their rows to the owner too. Any process may be writing those rows in an
 * order of its own (a key's usage is counted in the database every second), so
 * a deadlock runs the deletion again rather than failing it. Answers how many
 * rows went, or nothing for an unknown tenant.
 */
export async function deleteTenant(db: ConnectionPool, id: string): Promise<number | undefined> {
  const tables = await tenantTables(db);
  const apart = APART.filter((table) => tables.includes(table));
  const before = await deleteApart(db, id, apart);
  const deleted = await retryingDeadlocks(() =>
    db.tx(async (tx) => {
      const [tenant] = (await tx.query(sql`select id from tenants where id = ${id} for update`)) as { id: string }[];
      if (!tenant) return undefined;
      await tx.query(sql`select set_config(${TENANT_SETTING}, ${id}, true)`);
      let rows = 0;
      for (const table of tables.filter((t) => !APART.includes(t))) {
        const [deleted] = (await tx.query(
          sql`with gone as (delete from ${sql.ident(table)} where tenant_id = ${id} returning 1) select count(*)::int as rows from gone`,
        )) as { rows: number }[];
        rows += deleted?.rows ?? 0;
      }
      await tx.query(sql`delete from tenants where id = ${id}`);
      return rows + 1;
    }),
  );
  // What the tenant's requests wrote there while its deletion ran; one later still goes with its retention (the store's sweep).
  const after = deleted === undefined ? 0 : await deleteApart(db, id, apart);
  noteCredentialChange();
  return deleted === undefined ? undefined : deleted + before + after;
}
