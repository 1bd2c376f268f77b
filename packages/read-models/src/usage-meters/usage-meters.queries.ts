import type { BillingPeriod, MeterQuantities } from '@earshot/billing-rules';
import { sql, type Statements } from '@earshot/db';
import { windowOf, type Paging } from '@earshot/server';

export interface UsageRow {
  day: string;
  events_ingested: number;
  calls: number;
  call_ms: number;
  api_requests: number;
  stored_bytes: number;
}

/**
 * Days newest first, each UTC day that overlaps [from, to) (a `from` or a `to`
 * within a day keeps that day), its shards added up; a day is its own key, so
 * the cursor is the last day shown.
 */
export async function usageRows(tx: Statements, range: { from?: string | undefined; to?: string | undefined }, paging: Paging): Promise<UsageRow[]> {
  const after = paging.after;
  const filters = [
    after ? sql`day < ${after.id}::date` : sql`true`,
    range.from ? sql`day >= (${range.from}::timestamptz at time zone 'UTC')::date` : sql`true`,
    range.to ? sql`(day::timestamp at time zone 'UTC') < ${range.to}::timestamptz` : sql`true`,
  ];
  return (await tx.query(
    sql`select day::text as day, sum(events_ingested)::bigint as events_ingested, sum(calls)::bigint as calls, sum(call_ms)::bigint as call_ms,
          sum(api_requests)::bigint as api_requests, sum(stored_bytes)::bigint as stored_bytes
        from usage_meters where ${sql.join(filters, sql` and `)} group by day order by day desc ${windowOf(paging)}`,
  )) as UsageRow[];
}

/** The tenant's first metered UTC day (YYYY-MM-DD), or null before any use. */
export async function firstMeteredDay(tx: Statements): Promise<string | null> {
  const [first] = (await tx.query(sql`select min(day)::text as day from usage_meters`)) as { day: string | null }[];
  return first?.day ?? null;
}

/** Every meter over a period, from the usage meters of its days (inside the tenant's transaction). */
export async function readQuantities(tx: Statements, period: BillingPeriod): Promise<MeterQuantities> {
  const [row] = (await tx.query(sql`
    select coalesce(sum(events_ingested), 0)::float8 as events_ingested, coalesce(sum(calls), 0)::float8 as calls,
           coalesce(sum(call_ms), 0)::float8 as call_ms, coalesce(sum(api_requests), 0)::float8 as api_requests,
           coalesce(sum(stored_bytes), 0)::float8 as stored_bytes
      from usage_meters
     where day >= (${period.start}::timestamptz at time zone 'UTC')::date and day < (${period.end}::timestamptz at time zone 'UTC')::date`)) as Record<
    'events_ingested' | 'calls' | 'call_ms' | 'api_requests' | 'stored_bytes',
    number
  >[];
  return {
    events_ingested: row?.events_ingested ?? 0,
    calls: row?.calls ?? 0,
    call_minutes: (row?.call_ms ?? 0) / 60_000,
    api_requests: row?.api_requests ?? 0,
    stored_megabytes: (row?.stored_bytes ?? 0) / 1_000_000,
  };
}
