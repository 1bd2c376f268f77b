import { sql, type SQLQuery, type Statements } from '@earshot/db';
import { METRICS, type Sketch } from '@earshot/metrics';

/**
 * The live window: the last 15 minutes. Calls in progress count when they
 * had an event in it (one silent longer is taken as lost, not live).
 */
export const LIVE_WINDOW_MS = 15 * 60_000;

export interface LiveRow {
  concurrent: number;
  ended: number;
  completed: number;
  /** The window's turn latencies as one sketch (bucket → count); null when it had no turn. */
  sketch: Sketch | null;
}

/**
 * The statement GET /realtime runs over the live window ending `now`: three
 * index-backed reads (calls in progress, calls started, the turn latency
 * sketches) in one round trip.
 */
export function liveStatement(now: Date): SQLQuery {
  const since = new Date(now.getTime() - LIVE_WINDOW_MS);
  const minute = new Date(Math.floor(since.getTime() / 60_000) * 60_000);
  return sql`
    select
      (select count(*) from calls where status = 'in_progress' and last_event_at >= ${since})::int as concurrent,
      e.ended::int, e.completed::int,
      (select jsonb_object_agg(key, n) from (
         select b.key, sum(b.value::bigint) as n from metric_rollups r, jsonb_each_text(r.sketch) b
          where r.metric = ${METRICS.turnLatencyTotal} and r.minute >= ${minute} group by b.key) s) as sketch
    from (select count(*) filter (where status <> 'in_progress') as ended, count(*) filter (where status = 'completed') as completed
            from calls where started_at >= ${since}) e`;
}

export async function liveRow(tx: Statements, now: Date): Promise<LiveRow | undefined> {
  const [row] = (await tx.query(liveStatement(now))) as LiveRow[];
  return row;
}
