import { randomBytes } from 'node:crypto';
import { AUTH_MIGRATIONS, createTenant, DataKeyCache, DataKeys, SecretBox } from '@earshot/auth';
import type { StoredEvent } from '@earshot/contracts';
import { DATABASE_MIGRATIONS, migrate, type ConnectionPool } from '@earshot/db';
import type { EventLog } from '@earshot/log';
import { PROJECTOR_MIGRATIONS } from '@earshot/projector';
import { callScript, ingestedRecords } from '@earshot/testing';
import { wholeNumber } from './args';

/**
 * The projector benches' traffic: 30-turn calls (transcripts, tool calls,
 * outcomes) across tenants, taken a run of calls at a time, and their
 * records as ingest appends them.
 */

const START_MS = Date.parse('2026-01-08T09:00:00Z');

function script(tenants: readonly string[], prefix: string, n: number, startMs: number): StoredEvent[] {
  return callScript({
    tenant: tenants[n % tenants.length] ?? '',
    providerCallId: `${prefix}-${n}`,
    agentId: `agent_${n % 5}`,
    turns: 30,
    outcome: true,
    ending: n % 10 === 0 ? 'transferred' : n % 17 === 0 ? 'failed' : 'completed',
    startMs,
  });
}

/**
 * Calls started 4 s apart (about 30 at once, in event time) unless more are in progress, when they start closer, a
 * call's length divided by their number apart: the calls interleaved are in progress at the same time, and their
 * events share minutes.
 */
function* calls(tenants: readonly string[], prefix: string, concurrent: number): Generator<StoredEvent[], never> {
  const first = script(tenants, prefix, 0, START_MS);
  const lastsMs = Date.parse(first.at(-1)?.occurred_at ?? '') - START_MS;
  const startEveryMs = Math.min(4_000, lastsMs / concurrent);
  yield first;
  for (let n = 1; ; n++) yield script(tenants, prefix, n, START_MS + Math.round(n * startEveryMs));
}

/**
 * The first `count` events of the calls, made as they are taken: `concurrent` calls at a time, their events
 * interleaved one each in turn, as a provider sends its calls in progress; a call that ends gives way to the next.
 */
export function* take(tenants: readonly string[], count: number, prefix: string, concurrent: number): Generator<StoredEvent> {
  const source = calls(tenants, prefix, concurrent);
  const inProgress: Iterator<StoredEvent>[] = [];
  let taken = 0;
  while (taken < count) {
    while (inProgress.length < concurrent) inProgress.push(source.next().value[Symbol.iterator]());
    for (let i = 0; i < inProgress.length && taken < count; i++) {
      const next = inProgress[i]?.next();
      if (next === undefined || next.done) {
        inProgress.splice(i--, 1);
        continue;
      }
      taken++;
      yield next.value;
    }
  }
}

/** Items `size` at a time. */
export function* chunks<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The traffic's tenants, and the keys their calls are sealed and opened with. */
export interface TrafficTenants {
  tenants: string[];
  masterKey: Buffer;
  dataKeys: DataKeys;
  /** What ingest seals with, through the cache it uses, so a call's repeated values keep one seal; none in the clear. */
  sealing: DataKeyCache | undefined;
}

/** A database given the projector's tables and `count` tenants, under a master key of its own. */
export async function trafficTenants(db: ConnectionPool, count: number, sealed: boolean): Promise<TrafficTenants> {
  await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
  const masterKey = randomBytes(32);
  const box = new SecretBox(masterKey);
  const tenants: string[] = [];
  for (let i = 0; i < count; i++) tenants.push((await createTenant(db, box, { name: `Bench ${i}` })).tenant.id);
  const dataKeys = new DataKeys(db, box);
  return { tenants, masterKey, dataKeys, sealing: sealed ? new DataKeyCache(dataKeys) : undefined };
}

/** The traffic options the projector's benches share. */
export interface TrafficOptions {
  /** --events N */
  events: number;
  /** --tenants N (default 8): the calls go to N tenants in turn. */
  tenants: number;
  /** --concurrent-calls N (default 1): N calls in progress at once, their events interleaved. */
  concurrentCalls: number;
  /** Unless --in-the-clear: sealed with per-call data keys, as ingest seals by default. */
  sealed: boolean;
}

export function trafficOptions(args: readonly string[], events: number): TrafficOptions {
  return {
    events: wholeNumber(args, 'events', events),
    tenants: wholeNumber(args, 'tenants', 8),
    concurrentCalls: wholeNumber(args, 'concurrent-calls', 1),
    sealed: !args.includes('--in-the-clear'),
  };
}

/**
 * Appends the traffic's events to the log, made and appended 2,000 at a time so that this process's heap (a projector's
 * too, in `bench projector`) never holds them all; answers how many.
 */
export async function appendTraffic(
  log: EventLog,
  tenants: TrafficTenants,
  options: TrafficOptions,
  prefix: string,
  progress: (line: string) => void,
): Promise<number> {
  let appended = 0;
  for (const chunk of chunks(take(tenants.tenants, options.events, prefix, options.concurrentCalls), 2_000)) {
    await log.append(await ingestedRecords(chunk, tenants.sealing));
    appended += chunk.length;
    progress(`appending ${appended.toLocaleString('en-US')} / ${options.events.toLocaleString('en-US')} events`);
  }
  return appended;
}
