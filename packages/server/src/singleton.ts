import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { claimLease, leaseHeld, LeaseLost, releaseLease, type ConnectionPool, type LeaseGrant, type Queryable } from '@earshot/db';
import type { PeriodicTask } from './periodic';

/** What a round run under a lease may check before it does what must not be done twice. */
export interface Fence {
  readonly token: number;
  /** Throws LeaseLost unless this process still holds the lease it was granted (on `db`, or inside the caller's transaction). */
  confirm(db?: Queryable): Promise<void>;
}

/** For rounds run outside any lease (tests, one-off commands): nothing to confirm. */
export const UNFENCED: Fence = { token: 0, confirm: async () => undefined };

export interface SingletonOptions {
  db: ConnectionPool;
  /** The lease's name: processes running the same name run its rounds one at a time. */
  name: string;
  /** How often the holder runs a round. */
  intervalMs: number;
  /** How long a lease lasts without renewal: the longest another process waits after the holder dies. */
  ttlMs: number;
  onError: (error: unknown) => void;
  /** Told when this process takes the lease over or loses it (for the process log). */
  onChange?: (held: boolean, grant: LeaseGrant | undefined) => void;
}

export interface Singleton extends PeriodicTask {
  /** Whether this process held the lease at its last claim. */
  held(): boolean;
}

/**
 * Runs `task` every `intervalMs` in whichever process holds the lease
 * `name`, and in no other. Every process claims the lease every third of its
 * time to live: the holder renews it, the others take it once it has expired,
 * so when the holder dies its work moves within `ttlMs` plus a third of it
 * (and at once when it stops cleanly, since stopping releases the lease). A
 * new holder runs a round at once: rounds must be safe to repeat, and work
 * that must not be done twice confirms the fence first.
 */
export function runAsSingleton(options: SingletonOptions, task: (fence: Fence) => Promise<unknown>): Singleton {
  const { db, name, intervalMs, ttlMs, onError, onChange = () => undefined } = options;
  const holder = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const checkMs = Math.max(10, Math.min(intervalMs, Math.floor(ttlMs / 3)));
  let grant: LeaseGrant | undefined;
  let lastRound = 0;
  let running: Promise<unknown> | null = null;
  let claiming: Promise<unknown> | null = null;
  let stopped = false;

  const fenceOf = (current: LeaseGrant): Fence => ({
    token: current.token,
    confirm: async (q = db) => {
      if (grant?.token !== current.token || !(await leaseHeld(q, current))) throw new LeaseLost(`${name}: another process holds the lease now`);
    },
  });

  async function tick(): Promise<void> {
    const before = grant;
    try {
      grant = await claimLease(db, name, holder, ttlMs);
    } catch (error) {
      grant = undefined;
      onError(error);
    }
    if ((before === undefined) !== (grant === undefined) || (grant?.acquired ?? false)) onChange(grant !== undefined, grant);
    const current = grant;
    if (stopped || current === undefined || running !== null) return;
    const due = current.acquired || Date.now() - lastRound >= intervalMs;
    if (!due) return;
    lastRound = Date.now();
    running = task(fenceOf(current))
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }

  const timer = setInterval(() => {
    claiming ??= tick().finally(() => {
      claiming = null;
    });
  }, checkMs);
  timer.unref();

  return {
    held: () => grant !== undefined,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await claiming;
      await running;
      if (grant !== undefined) await releaseLease(db, grant).catch(onError);
      grant = undefined;
    },
  };
}
