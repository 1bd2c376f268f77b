import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { sql, type ConnectionPool } from '@earshot/db';

/** Linux reports process times in USER_HZ ticks, 100 a second on every mainstream kernel. */
const TICKS_PER_SECOND = 100;

/**
 * The Postgres backends serving a database, every client's: whose CPU is that database's work. The pool's own
 * database, or the one named (a bench's admin pool sits on the server's default database).
 */
export async function databaseBackends(db: ConnectionPool, database?: string): Promise<number[]> {
  const named = database === undefined ? sql`current_database()` : sql`${database}`;
  const rows = (await db.query(sql`select pid from pg_stat_activity where datname = ${named}`)) as { pid: number }[];
  return rows.map((row) => row.pid);
}

/**
 * CPU seconds (user + system) the processes have used so far, read from
 * /proc; undefined where there is no /proc (the figure is then left out).
 * Processes that are gone count as zero.
 */
export function cpuSeconds(pids: readonly number[]): number | undefined {
  try {
    readFileSync('/proc/self/stat');
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      // The command name may hold spaces and parentheses: the fields start after its last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** Milliseconds of CPU per request between two readings of cpuSeconds, or 'n/a' where either is unknown. */
export function cpuMsPerRequest(after: number | undefined, before: number | undefined, requests: number): number | 'n/a' {
  return after === undefined || before === undefined ? 'n/a' : Number((((after - before) * 1000) / requests).toFixed(3));
}

/** The whole machine's CPU ticks so far, busy and in all, from /proc/stat; undefined where there is none. */
export function machineTicks(): { busy: number; total: number } | undefined {
  try {
    // "cpu  user nice system idle iowait irq softirq steal ...": idle and iowait are the time no one used.
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, n) => sum + n, 0);
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU that was busy between two readings of machineTicks, or 'n/a'. */
export function busyShare(after: ReturnType<typeof machineTicks>, before: ReturnType<typeof machineTicks>): number | 'n/a' {
  if (after === undefined || before === undefined || after.total === before.total) return 'n/a';
  return Number(((after.busy - before.busy) / (after.total - before.total)).toFixed(2));
}

/** Milliseconds (as cpuMsPerRequest gives them) in microseconds, to a tenth. */
export const microseconds = (ms: number | 'n/a') => (ms === 'n/a' ? ms : Number((ms * 1_000).toFixed(1)));

/**
 * The CPU an event costs every process on its path together (each part in µs, 'n/a' where unknown), and the rate at
 * which that fills every core of this machine: the most any number of processes could reach here, since they all
 * share these cores. Undefined when a part is unknown.
 */
export function machineBound(partsUs: readonly (number | 'n/a')[]): { usPerEvent: number; cores: number; eventsPerSecond: number } | undefined {
  let usPerEvent = 0;
  for (const part of partsUs) {
    if (part === 'n/a') return undefined;
    usPerEvent += part;
  }
  const cores = availableParallelism();
  return { usPerEvent, cores, eventsPerSecond: (cores * 1_000_000) / usPerEvent };
}
