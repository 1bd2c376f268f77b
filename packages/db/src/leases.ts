import { sql, type Queryable } from '@databases/pg';

/** A lease as its holder sees it: the fencing token proves it still holds the lease it was granted. */
export interface LeaseGrant {
  name: string;
  holder: string;
  token: number;
  /** Whether this claim took the lease over (from nobody, or from a holder that let it expire). */
  acquired: boolean;
}

/** Work under a lease found that another process holds it now. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/**
 * Takes the lease `name` for `ttlMs` if it is free or expired, or renews it
 * if `holder` holds it; answers undefined when another holder has it. One
 * statement, so two processes claiming at once cannot both win. The token
 * stays the same across renewals and grows when the holder changes.
 */
export async function claimLease(db: Queryable, name: string, holder: string, ttlMs: number): Promise<LeaseGrant | undefined> {
  const [row] = (await db.query(sql`
    insert into leases as l (name, holder, token, acquired_at, expires_at)
    values (${name}, ${holder}, 1, statement_timestamp(), clock_timestamp() + ${ttlMs} * interval '1 millisecond')
    on conflict (name) do update
       set token = case when l.holder = excluded.holder and l.expires_at > clock_timestamp() then l.token else l.token + 1 end,
           acquired_at = case when l.holder = excluded.holder and l.expires_at > clock_timestamp() then l.acquired_at else statement_timestamp() end,
           holder = excluded.holder,
           expires_at = excluded.expires_at
     where l.holder = excluded.holder or l.expires_at <= clock_timestamp()
    returning token, acquired_at = statement_timestamp() as acquired`)) as { token: number; acquired: boolean }[];
  return row ? { name, holder, token: Number(row.token), acquired: row.acquired } : undefined;
}

/** Whether the lease is still held with this token and has not expired: checked before work that must not be done twice. */
export async function leaseHeld(db: Queryable, grant: Pick<LeaseGrant, 'name' | 'token'>): Promise<boolean> {
  const [row] = (await db.query(
    sql`select 1 as held from leases where name = ${grant.name} and token = ${grant.token} and expires_at > clock_timestamp()`,
  )) as { held: number }[];
  return row !== undefined;
}

/** Lets the lease go at once, so a stopping process hands its work over without the others waiting out the expiry. */
export async function releaseLease(db: Queryable, grant: Pick<LeaseGrant, 'name' | 'holder'>): Promise<void> {
  await db.query(sql`update leases set expires_at = clock_timestamp() where name = ${grant.name} and holder = ${grant.holder}`);
}
