import { randomBytes } from 'node:crypto';
import { ownerInTenant, platformQuery, PLATFORM_ROLE, prepared, sql, type ConnectionPool, type Queryable } from '@earshot/db';
import { GroupCommit } from '@earshot/group-commit';
import type { DataKey, ErasableCall, ErasedAt, KeyLookup } from '@earshot/events';
import { SecretBox } from './secret-box';
import { UnwrappedKeys } from './unwrapped-keys';

interface KeyRow {
  id: string;
  call_id: string | null;
  wrapped: Buffer;
}

/** A call's key as a caller would make it, should the call have none yet. */
interface CallKeyWanted {
  callId: string;
  id: string;
  wrapped: Buffer;
}

type StoredCallKey = Pick<KeyRow, 'id' | 'wrapped'>;

/** The advisory lock (an int4 key beside the tenant's) a call's erasure takes exclusively, and a projector batch of the tenant's clear events shared. */
const ERASURE_LOCK = 742_026_112;

const newKeyId = (): string => `dk_${randomBytes(12).toString('base64url')}`;
const wrap = (box: SecretBox, key: Buffer): Buffer => box.seal(key.toString('base64'));
const unwrap = (box: SecretBox, wrapped: Buffer): Buffer => Buffer.from(box.open(wrapped), 'base64');

/**
 * The data keys that seal events' personal fields: one per tenant, wrapped by
 * the master key, and one per call, wrapped by its tenant's key. Keys are
 * made on first use and never change; erasing a call or a tenant deletes
 * its rows, after which the fields its events sealed cannot be opened.
 */
export class DataKeys {
  private readonly unwrapped = new UnwrappedKeys();
  /** Each tenant's callers waiting for new call keys, while any are: gone once its last write is done. */
  private readonly callKeyWrites = new Map<string, GroupCommit<CallKeyWanted, StoredCallKey | null>>();

  constructor(
    private readonly db: ConnectionPool,
    private readonly master: SecretBox,
  ) {}

  /** The tenant's own key, made on first use; it seals the tenant's events about no call. */
  async forTenant(tenantId: string): Promise<DataKey> {
    // Twice at most: a key another process made after this statement's snapshot is seen by the next one.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const [row] = (await ownerInTenant(this.db, tenantId, (tx) =>
        tx.query(sql`
        with made as (
          insert into data_keys (id, tenant_id, wrapped) values (${newKeyId()}, ${tenantId}, ${wrap(this.master, randomBytes(32))})
          on conflict do nothing returning id, wrapped)
        select id, wrapped from made union all select id, wrapped from data_keys where tenant_id = ${tenantId} and call_id is null
        limit 1`),
      )) as Pick<KeyRow, 'id' | 'wrapped'>[];
      if (row !== undefined) return { id: row.id, key: unwrap(this.master, row.wrapped) };
    }
    throw new Error(`tenant ${tenantId}: no data key could be made`);
  }

  /**
   * Each call's key by call id, made on first use. Concurrent callers of one tenant share one statement (the platform
   * role's, one round trip): a provider's every new call needs a key, and one transaction each cost four round trips
   * and most of the gateway's Postgres time for a webhook that starts a call. Tenants never share one: a new key's
   * foreign key waits on its tenant's row, which a tenant's deletion holds until it is done, and only that tenant's
   * callers may wait with it. With the tenant's key given (a cache of them gives it) that statement is all.
   */
  async forCalls(tenantId: string, callIds: readonly string[], tenantKey?: DataKey): Promise<Map<string, DataKey>> {
    const tenantBox = new SecretBox((tenantKey ?? (await this.forTenant(tenantId))).key);
    const found = new Map<string, DataKey>();
    // Twice at most: a key another process made after the statement's snapshot is seen by the next one.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const wanted = [...new Set(callIds)].filter((id) => !found.has(id));
      if (wanted.length === 0) break;
      const rows = await this.callKeyWritesOf(tenantId).add(wanted.map((callId) => ({ callId, id: newKeyId(), wrapped: wrap(tenantBox, randomBytes(32)) })));
      rows.forEach((row, i) => {
        if (row) found.set(wanted[i] as string, { id: row.id, key: unwrap(tenantBox, row.wrapped) });
      });
    }
    return found;
  }

  private callKeyWritesOf(tenantId: string): GroupCommit<CallKeyWanted, StoredCallKey | null> {
    let writes = this.callKeyWrites.get(tenantId);
    if (!writes) {
      const made = new GroupCommit<CallKeyWanted, StoredCallKey | null>((wanted) => this.writeCallKeys(tenantId, wanted));
      this.callKeyWrites.set(tenantId, made);
      // A microtask on, the first caller's keys are queued: once they and any joining them are written, a later caller starts anew.
      queueMicrotask(() => void made.settled().then(() => this.callKeyWrites.get(tenantId) === made && this.callKeyWrites.delete(tenantId)));
      writes = made;
    }
    return writes;
  }

  /**
   * Each wanted call key's row, made now or before; null for one another transaction made after this statement's
   * snapshot. Inserted in call order, so two processes' statements never wait on each other in a circle.
   */
  private async writeCallKeys(tenantId: string, wanted: readonly CallKeyWanted[]): Promise<(StoredCallKey | null)[]> {
    const firsts = new Map<string, CallKeyWanted>();
    for (const k of wanted) if (!firsts.has(k.callId)) firsts.set(k.callId, k);
    const rows = [...firsts.values()].sort((a, b) => (a.callId < b.callId ? -1 : a.callId > b.callId ? 1 : 0));
    const callIds = rows.map((k) => k.callId);
    const stored = (await platformQuery(
      this.db,
      prepared(sql`
      with made as (
        insert into data_keys (id, tenant_id, call_id, wrapped)
        select id, ${tenantId}, call_id, wrapped
          from unnest(${rows.map((k) => k.id)}::text[], ${callIds}::text[], ${rows.map((k) => k.wrapped)}::bytea[]) with ordinality as k(id, call_id, wrapped, n)
         order by n
        on conflict do nothing returning id, call_id, wrapped)
      select id, call_id, wrapped from made
      union all
      select id, call_id, wrapped from data_keys where tenant_id = ${tenantId} and call_id = any(${callIds}::text[])`),
    )) as KeyRow[];
    const byCall = new Map(stored.map((row) => [row.call_id, { id: row.id, wrapped: row.wrapped }]));
    return wanted.map((k) => byCall.get(k.callId) ?? null);
  }

  /**
   * The keys with these ids that still exist, as a reader's lookup; a destroyed key is simply absent. The ids may be any
   * tenant's (the platform role's path); given a tenant, only that tenant's keys: what a reader acting with one tenant's
   * authority may open.
   */
  async lookup(keyIds: readonly string[], tenantId?: string): Promise<KeyLookup> {
    const keys = new Map<string, Buffer>();
    const unique = [...new Set(keyIds)];
    if (unique.length > 0) {
      const ofTenant = tenantId === undefined ? sql`true` : sql`k.tenant_id = ${tenantId}`;
      const rows = (await platformQuery(
        this.db,
        sql`
        select k.id, k.call_id, k.wrapped, t.wrapped as tenant_wrapped
          from data_keys k join data_keys t on t.tenant_id = k.tenant_id and t.call_id is null
         where k.id = any(${unique}::text[]) and ${ofTenant}`,
      )) as (KeyRow & { tenant_wrapped: Buffer })[];
      for (const row of rows) {
        let key = this.unwrapped.get(row.id, row.wrapped);
        if (key === undefined) {
          const tenantKey = unwrap(this.master, row.tenant_wrapped);
          key = row.call_id === null ? tenantKey : unwrap(new SecretBox(tenantKey), row.wrapped);
          this.unwrapped.set(row.id, row.wrapped, key);
        }
        keys.set(row.id, key);
      }
    }
    return (keyId) => keys.get(keyId);
  }

  /**
   * Holds these keys against erasure until the caller's transaction ends, and answers those that still exist. Erasure
   * deletes a call's key before its rows, so it waits for a holder's rows and deletes them too, and a holder that comes
   * after it finds the key gone. Runs as the platform role (keys by id, any tenant's): the caller sets its own after.
   */
  static async hold(tx: Queryable, keyIds: readonly string[]): Promise<Set<string>> {
    await tx.query(sql`set local role ${sql.ident(PLATFORM_ROLE)}`);
    // In one order, so two holders and an erasure never wait on each other in a circle.
    const rows = (await tx.query(sql`select id from data_keys where id = any(${[...new Set(keyIds)].sort()}::text[]) order by id for share`)) as {
      id: string;
    }[];
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Holds off erasures in these calls' tenants until the caller's transaction ends, and answers when each call was last
   * erased. An erasure takes its tenant's lock first, so it waits for the holder and then deletes its rows, and a
   * holder that comes after it finds the erasure. For events appended in the clear, which no key reaches; the platform
   * role's statements, after which the caller sets its own role.
   */
  static async holdErasures(tx: Queryable, calls: readonly ErasableCall[]): Promise<ErasedAt> {
    await tx.query(sql`set local role ${sql.ident(PLATFORM_ROLE)}`);
    const tenants = [...new Set(calls.map((c) => c.tenantId))].sort();
    await tx.query(sql`select pg_advisory_xact_lock_shared(${ERASURE_LOCK}, hashtext(lower(t))) from unnest(${tenants}::text[]) as t order by t`);
    const rows = (await tx.query(sql`
      select e.tenant_id, e.call_id, e.erased_at from erased_calls e
        join unnest(${calls.map((c) => c.tenantId)}::uuid[], ${calls.map((c) => c.callId)}::text[]) as c (tenant_id, call_id)
          on e.tenant_id = c.tenant_id and e.call_id = c.call_id`)) as { tenant_id: string; call_id: string; erased_at: Date }[];
    const erased = new Map(rows.map((row) => [`${row.tenant_id}:${row.call_id}`, row.erased_at.getTime()]));
    return (tenantId, callId) => erased.get(`${tenantId}:${callId}`);
  }

  /**
   * The calls erased at or after `since` (by the database's clock), read in the caller's transaction as the platform
   * role (any tenant's), which then goes on as the session's own role.
   */
  static async erasedSince(tx: Queryable, since: Date): Promise<{ tenantId: string; callId: string }[]> {
    await tx.query(sql`set local role ${sql.ident(PLATFORM_ROLE)}`);
    const rows = (await tx.query(sql`select tenant_id, call_id from erased_calls where erased_at >= ${since}`)) as { tenant_id: string; call_id: string }[];
    await tx.query(sql`set local role none`);
    return rows.map((row) => ({ tenantId: row.tenant_id, callId: row.call_id }));
  }

  /**
   * Destroys one call's key: its events' sealed fields become unreadable bytes. Answers whether there was one. Given a
   * transaction already scoped to the tenant, the key goes with whatever else it does (the call's rows). The erasure is
   * recorded too (erased_calls), for the events of the call appended in the clear, which no key reaches.
   */
  async eraseCall(tenantId: string, callId: string, tx?: Queryable): Promise<boolean> {
    const erase = async (q: Queryable) => {
      // First: a projector batch of this tenant's events in the clear finishes before, or starts after (holdErasures).
      await q.query(sql`select pg_advisory_xact_lock(${ERASURE_LOCK}, hashtext(lower(${tenantId})))`);
      // now() of a later statement than the projector's: a record the log stored before this commit is older.
      await q.query(sql`
        insert into erased_calls (tenant_id, call_id, erased_at) values (${tenantId}, ${callId}, clock_timestamp())
        on conflict (tenant_id, call_id) do update set erased_at = excluded.erased_at`);
      return q.query(sql`delete from data_keys where tenant_id = ${tenantId} and call_id = ${callId} returning id`);
    };
    const gone = await (tx ? erase(tx) : ownerInTenant(this.db, tenantId, erase));
    return gone.length > 0;
  }

  /**
   * When each of these calls was last erased, in milliseconds since the epoch, as a lookup (undefined for a call never
   * erased). One statement for the lot, the platform role's: a projector batch holds many tenants' events.
   */
  async erasedCalls(calls: readonly { tenantId: string; callId: string }[]): Promise<(tenantId: string, callId: string) => number | undefined> {
    const erased = new Map<string, number>();
    const unique = new Map(calls.map((c) => [`${c.tenantId}:${c.callId}`, c]));
    if (unique.size > 0) {
      const wanted = [...unique.values()];
      const rows = (await platformQuery(
        this.db,
        sql`
        select e.tenant_id, e.call_id, e.erased_at from erased_calls e
          join unnest(${wanted.map((c) => c.tenantId)}::uuid[], ${wanted.map((c) => c.callId)}::text[]) as c (tenant_id, call_id)
            on e.tenant_id = c.tenant_id and e.call_id = c.call_id`,
      )) as { tenant_id: string; call_id: string; erased_at: Date }[];
      for (const row of rows) erased.set(`${row.tenant_id}:${row.call_id}`, row.erased_at.getTime());
    }
    return (tenantId, callId) => erased.get(`${tenantId}:${callId}`);
  }
}
