import { setTimeout as sleep } from 'node:timers/promises';
import { storedId } from '@earshot/contracts';
import { deadlocked, platformQuery, prepared, refusedValue, sql, type ConnectionPool } from '@earshot/db';
import { GroupCommit } from '@earshot/group-commit';

export interface IdempotencyOptions {
  /** The write the keys belong to, e.g. `ingest`; keys of different scopes never meet. */
  scope: string;
  /** How long an answer is kept and replayed: 72 hours for ingest, 24 for the query service's writes. */
  retentionMs: number;
  /** How long a claim may stay in flight before another process may take it over (its holder died). */
  leaseMs?: number;
  /**
   * How long an answer may wait for claims to ride with: at a light load an
   * answer written at once takes a statement of its own, which the next
   * claims queue behind. 0 (the default) writes it at once. A copy of its key
   * waits that much longer for it.
   */
  answerLingerMs?: number;
  now: () => Date;
}

export interface IdempotencyRequest {
  tenantId: string;
  key: string;
  /** Hash of the request, so a caller can tell a true retry from a different request under a reused key. */
  requestHash: Buffer;
}

export interface StoredAnswer {
  status: number;
  response: unknown;
}

export type Claim =
  /** This caller holds the key: it must `complete` or `release` it. */
  | { state: 'claimed' }
  /** Someone answered this key before. */
  | ({ state: 'done'; requestHash: Buffer } & StoredAnswer)
  /** Someone else is answering it right now. */
  | { state: 'in_flight' };

interface KeyRow {
  tenant_id: string;
  key: string;
  status: number;
  response: unknown;
  request_hash: Buffer;
}

/** A claimed key's answer, with its request's hash: a key whose claim is gone (swept, or released by another) gets a row of its own. */
type Answer = IdempotencyRequest & StoredAnswer;

/** What one round trip carries: claims of new keys, and answers of keys claimed before. */
type Operation = { claim: IdempotencyRequest } | { answer: Answer };

/** Answers waiting for claims to ride with. */
interface Lingering {
  answers: Answer[];
  timer: NodeJS.Timeout;
  /** Settles `done` with the write the answers went in. */
  sent: (write: Promise<unknown>) => void;
  done: Promise<void>;
}

const identity = (request: Pick<IdempotencyRequest, 'tenantId' | 'key'>) => `${request.tenantId}\u0000${request.key}`;
/** The first item of each identity, in identity order; each identity built once rather than twice per comparison. */
function firstsByIdentity<T extends Pick<IdempotencyRequest, 'tenantId' | 'key'>>(items: readonly T[]): T[] {
  const firsts = new Map<string, T>();
  for (const item of items) {
    const id = identity(item);
    if (!firsts.has(id)) firsts.set(id, item);
  }
  return [...firsts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
}

/**
 * Longer than the event log sends an unanswered append again (Kafka's delivery timeout, two minutes): a request
 * answered 503 may still be stored by then, and its key stays claimed until that settles, not freed for a second copy.
 */
const DEFAULT_LEASE_MS = 150_000;

/** A key no request may claim: empty, longer than 255 characters, or text PostgreSQL cannot hold (a NUL). */
export class RefusedKeyError extends Error {
  constructor(key: string) {
    super(`an idempotency key must be 1 to 255 characters without a NUL character or an unpaired surrogate (${key.length} characters given)`);
    this.name = 'RefusedKeyError';
  }
}

/**
 * Idempotency keys in Postgres, shared by every process: the first request
 * claims a key with one insert, later ones get its answer. Claims and
 * answers queue together and go out in one statement, so under load a
 * batch of requests costs one round trip for both. A batch holds several
 * tenants' keys, so its statements run as the platform role (the table
 * forces row-level security).
 */
export class IdempotencyStore {
  private readonly leaseMs: number;
  private readonly answerLingerMs: number;
  private lingering: Lingering | undefined;
  private readonly writes = new GroupCommit<Operation, Claim | null>((operations) => this.write(operations), { isolate: refusedValue });

  constructor(
    private readonly db: ConnectionPool,
    private readonly options: IdempotencyOptions,
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.answerLingerMs = options.answerLingerMs ?? 0;
  }

  /** Claims each key, or tells who has it. A key given twice (here or by concurrent callers) is claimed once; the other copy is in flight. */
  claim(requests: readonly IdempotencyRequest[]): Promise<Claim[]> {
    return Promise.all(this.claimEach(requests));
  }

  /**
   * `claim`, answered request by request: a key the store cannot hold fails
   * alone before it joins a statement (RefusedKeyError), and one PostgreSQL
   * refuses fails alone after it (its statement is written again member by
   * member); the others share one statement still.
   */
  claimEach(requests: readonly IdempotencyRequest[]): Promise<Claim>[] {
    const valid = requests.filter((request) => storedId.safeParse(request.key).success);
    const sent = this.send(valid);
    let next = 0;
    return requests.map((request) =>
      valid[next] === request
        ? (sent[next++] as Promise<Claim | null>).then((claim) => claim ?? { state: 'in_flight' })
        : Promise.reject(new RefusedKeyError(request.key)),
    );
  }

  /** Stores the answers of claimed keys; later requests with these keys get them back. */
  async complete(answers: readonly Answer[]): Promise<void> {
    if (answers.length === 0) return;
    if (this.answerLingerMs === 0) {
      await this.writes.add(answers.map((answer) => ({ answer })));
      return;
    }
    this.lingering ??= this.linger();
    this.lingering.answers.push(...answers);
    await this.lingering.done;
  }

  private linger(): Lingering {
    let sent: Lingering['sent'] = () => undefined;
    const done = new Promise<void>((resolve, reject) => {
      sent = (write) => void write.then(() => resolve(), reject);
    });
    // The answers' own promise carries a failure; this one need not.
    const timer = setTimeout(() => void this.send([]), this.answerLingerMs);
    return { answers: [], timer, sent, done };
  }

  /** Queues each claim, and every answer still lingering, as calls of their own that share the next statement. */
  private send(requests: readonly IdempotencyRequest[]): Promise<Claim | null>[] {
    const lingering = this.lingering;
    this.lingering = undefined;
    if (lingering) clearTimeout(lingering.timer);
    const answers = lingering && lingering.answers.length > 0 ? [lingering.answers.map((answer) => ({ answer }))] : [];
    const writes = this.writes.addEach([...requests.map((claim) => [{ claim }]), ...answers]);
    if (lingering) lingering.sent(writes[requests.length] ?? Promise.resolve());
    return writes.slice(0, requests.length).map((write) => write.then(([claim]) => claim ?? null));
  }

  private async write(operations: readonly Operation[]): Promise<(Claim | null)[]> {
    const answers = operations.flatMap((operation) => ('answer' in operation ? [operation.answer] : []));
    const answered = new Set(answers.map(identity));
    // One statement cannot both answer a key and claim it: such a claim goes in a second statement, which sees the answer.
    const alongside: { at: number; request: IdempotencyRequest }[] = [];
    const after: { at: number; request: IdempotencyRequest }[] = [];
    operations.forEach((operation, at) => {
      if ('claim' in operation) (answered.has(identity(operation.claim)) ? after : alongside).push({ at, request: operation.claim });
    });
    const results: (Claim | null)[] = operations.map(() => null);
    const place = (claims: readonly { at: number }[], found: readonly Claim[]) => claims.forEach(({ at }, i) => (results[at] = found[i] ?? null));
    place(
      alongside,
      await this.claimAndAnswer(
        alongside.map((c) => c.request),
        answers,
      ),
    );
    if (after.length > 0)
      place(
        after,
        await this.claimAndAnswer(
          after.map((c) => c.request),
          [],
        ),
      );
    return results;
  }

  private async claimAndAnswer(requests: readonly IdempotencyRequest[], answers: readonly Answer[]): Promise<Claim[]> {
    try {
      return await this.claimNow(requests, answers);
    } catch (error) {
      // One statement answering and claiming locks rows out of the one order claims keep: a deadlock with another process undoes it whole, so it goes again as two.
      if (answers.length === 0 || requests.length === 0 || !deadlocked(error)) throw error;
      await this.claimNow([], answers);
      return this.claimNow(requests, []);
    }
  }

  private async claimNow(requests: readonly IdempotencyRequest[], unorderedAnswers: readonly Answer[]): Promise<Claim[]> {
    const answers = firstsByIdentity(unorderedAnswers);
    const now = this.options.now();
    // An upsert, not an update joined to the keys: its conflict check goes by the key's index whatever the table's
    // statistics say. A join's plan made while the table was nearly empty scanned all of it until the next analyze
    // (`bench ingest` at batch size 1: four times the Postgres CPU).
    const answering =
      answers.length === 0
        ? null
        : sql`insert into idempotency_keys as k (tenant_id, scope, key, request_hash, state, status, response, created_at, lease_until)
          select tenant_id, ${this.options.scope}, key, request_hash, 'done', status, response::jsonb, ${now}, ${now}
            from unnest(${answers.map((a) => a.tenantId)}::uuid[], ${answers.map((a) => a.key)}::text[], ${answers.map((a) => a.requestHash)}::bytea[],
                        ${answers.map((a) => a.status)}::int[], ${answers.map((a) => JSON.stringify(a.response))}::text[])
              as a (tenant_id, key, request_hash, status, response)
          on conflict (tenant_id, scope, key) do update set state = 'done', status = excluded.status, response = excluded.response`;
    if (requests.length === 0) {
      if (answering) await platformQuery(this.db, prepared(answering));
      return [];
    }
    // The first request of each key, in identity order: concurrent statements take row locks in one order, so they queue instead of deadlocking.
    const firsts = firstsByIdentity(requests);
    // A data-modifying WITH runs to completion even though nothing reads it.
    const claimedRows = (await platformQuery(
      this.db,
      prepared(sql`
      ${answering ? sql`with answered as (${answering} returning 1)` : sql``}
      insert into idempotency_keys as k (tenant_id, scope, key, request_hash, state, created_at, lease_until)
      select tenant_id, ${this.options.scope}, key, request_hash, 'in_flight', ${now}, ${new Date(now.getTime() + this.leaseMs)}
        from unnest(${firsts.map((r) => r.tenantId)}::uuid[], ${firsts.map((r) => r.key)}::text[], ${firsts.map((r) => r.requestHash)}::bytea[]) as i (tenant_id, key, request_hash)
      on conflict (tenant_id, scope, key) do update
        set request_hash = excluded.request_hash, state = 'in_flight', status = null, response = null,
            created_at = excluded.created_at, lease_until = excluded.lease_until
        where (k.state = 'in_flight' and k.lease_until < excluded.created_at)
           or k.created_at < ${new Date(now.getTime() - this.options.retentionMs)}
      returning k.tenant_id, k.key`),
    )) as { tenant_id: string; key: string }[];
    const claimed = new Set(claimedRows.map((r) => identity({ tenantId: r.tenant_id, key: r.key })));
    const others = firsts.filter((r) => !claimed.has(identity(r)));
    const known = new Map<string, Claim>();
    if (others.length > 0) {
      const rows = (await platformQuery(
        this.db,
        sql`
        select k.tenant_id, k.key, k.state, k.status, k.response, k.request_hash
          from idempotency_keys k
          join unnest(${others.map((r) => r.tenantId)}::uuid[], ${others.map((r) => r.key)}::text[]) as o (tenant_id, key) on k.tenant_id = o.tenant_id and k.key = o.key
         where k.scope = ${this.options.scope} and k.state = 'done'`,
      )) as KeyRow[];
      for (const row of rows)
        known.set(identity({ tenantId: row.tenant_id, key: row.key }), {
          state: 'done',
          status: row.status,
          response: row.response,
          requestHash: row.request_hash,
        });
    }
    const answered = new Set<string>();
    return requests.map((request) => {
      const id = identity(request);
      if (claimed.has(id) && !answered.has(id)) {
        answered.add(id);
        return { state: 'claimed' };
      }
      // Not ours and not answered yet: someone, maybe a copy in this very batch, is working on it.
      return known.get(id) ?? { state: 'in_flight' };
    });
  }

  /** Resolves once every claim and answer handed over so far is written: call before closing the pool. */
  async settled(): Promise<void> {
    if (this.lingering) void this.send([]);
    await this.writes.settled();
  }

  /** Gives claimed keys up (the work failed), so a retry can claim them afresh. */
  async release(requests: readonly Pick<IdempotencyRequest, 'tenantId' | 'key'>[]): Promise<void> {
    if (requests.length === 0) return;
    await platformQuery(
      this.db,
      sql`
      delete from idempotency_keys k
       using unnest(${requests.map((r) => r.tenantId)}::uuid[], ${requests.map((r) => r.key)}::text[]) as r (tenant_id, key)
       where k.tenant_id = r.tenant_id and k.scope = ${this.options.scope} and k.key = r.key and k.state = 'in_flight'`,
    );
  }

  /**
   * Waits while another request holds the key: answers its result once done,
   * or claims the key if that request gave up. Still in flight after
   * `timeoutMs`: answers in_flight and the caller decides (409, or 503).
   */
  async settle(request: IdempotencyRequest, timeoutMs: number): Promise<Claim> {
    const deadline = Date.now() + timeoutMs;
    for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
      const [claim] = await this.claim([request]);
      if (!claim || claim.state !== 'in_flight' || Date.now() >= deadline) return claim ?? { state: 'in_flight' };
      await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
    }
  }

  /** Deletes answers older than the retention; answers how many. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.options.now().getTime() - this.options.retentionMs);
    const deleted = await platformQuery(
      this.db,
      sql`
      delete from idempotency_keys where scope = ${this.options.scope} and created_at < ${cutoff} and (state = 'done' or lease_until < ${this.options.now()})
      returning 1`,
    );
    return deleted.length;
  }
}
