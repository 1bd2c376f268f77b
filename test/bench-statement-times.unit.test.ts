import { describe, expect, it } from 'vitest';
import { statementLabel, statementShares, type StatementReading } from '../bench/statement-times';

// The projector's claim as pg_stat_statements keeps it: a `with` chain whose first words name a CTE, not a table.
const CLAIM = `
  with keys as not materialized (select $1::text[] ks, $2::uuid tenant),
  before as (select a.idempotency_key from applied_events a, keys where a.tenant_id = keys.tenant and a.idempotency_key = any(keys.ks)),
  claimed as (insert into applied_events (tenant_id, idempotency_key) select keys.tenant, k from keys, unnest(keys.ks) k where k not in (select idempotency_key from before))
  select idempotency_key from before
  union all select "table", key from (select $3::text as "table", facts from "calls" where tenant_id = $4::uuid) c`;

const UPSERT = `with w0 as (insert into calls as t (tenant_id, call_id) select $1::uuid, r.call_id from unnest($2::text[]) r(call_id)
  on conflict (tenant_id, call_id) do update set facts = excluded.facts returning 1) select (select count(*)::int from w0) as w0`;

describe('what a statement is called in a bench figure', () => {
  it('names the tables it writes and reads, not its CTEs or the rows of a function', () => {
    expect(statementLabel(CLAIM)).toBe('writes applied_events; reads calls');
    expect(statementLabel(UPSERT)).toBe('writes calls');
    expect(statementLabel('update idempotency_keys set state = $1 where key = $2')).toBe('writes idempotency_keys');
    expect(statementLabel('delete from applied_events where applied_at < $1')).toBe('writes applied_events');
  });

  it('names the tables in one order, whichever order the statement has them in', () => {
    const turnsFirst = 'with w0 as (insert into turns select * from unnest($1::text[])), w1 as (insert into calls select * from unnest($2::text[])) select 1';
    expect(statementLabel(turnsFirst)).toBe('writes calls, turns');
    expect(statementLabel('select 1 from turns join calls on true')).toBe('reads calls, turns');
  });

  it('keeps the text, its spaces collapsed, of one that touches no table', () => {
    expect(statementLabel('select  set_config($1,\n  $2, true)')).toBe('select set_config($1, $2, true)');
  });
});

describe("a phase's statement time", () => {
  const reading = (entries: [string, string, number, number][]): StatementReading =>
    new Map(entries.map(([id, query, calls, ms]) => [id, { query, calls, ms }]));

  it('is what each statement spent between the readings, the costliest first, as a share and per event', () => {
    const before = reading([
      ['1', CLAIM, 10, 100],
      ['2', UPSERT, 10, 50],
      ['3', 'select 1', 5, 1],
    ]);
    const after = reading([
      ['1', CLAIM, 20, 130],
      ['2', UPSERT, 30, 110],
      ['3', 'select 1', 5, 1],
      ['4', 'select  1 ', 10, 10],
    ]);
    expect(statementShares(before, after, 1_000)).toEqual({
      totalUsPerEvent: 100,
      statements: [
        { statement: 'writes calls', share: 0.6, us_per_event: 60, calls: 20 },
        { statement: 'writes applied_events; reads calls', share: 0.3, us_per_event: 30, calls: 10 },
        { statement: 'select 1', share: 0.1, us_per_event: 10, calls: 10 },
      ],
    });
  });

  it('counts shapes of one statement as one, and leaves out the readings of pg_stat_statements', () => {
    const after = reading([
      ['1', UPSERT, 4, 30],
      ['2', UPSERT.replace('$2::text[]', '$2::text[], $3::text[]'), 4, 10],
      ['3', 'select queryid from pg_stat_statements', 2, 500],
    ]);
    expect(statementShares(new Map(), after, 100)).toEqual({
      totalUsPerEvent: 400,
      statements: [{ statement: 'writes calls', share: 1, us_per_event: 400, calls: 8 }],
    });
  });

  it('names four statements at most, and counts the rest in the total', () => {
    const after = reading([1, 2, 3, 4, 5].map((n) => [String(n), `insert into t${n} values (1)`, 1, n]));
    const { totalUsPerEvent, statements } = statementShares(new Map(), after, 1);
    expect(totalUsPerEvent).toBe(15_000);
    expect(statements.map((s) => s.statement)).toEqual(['writes t5', 'writes t4', 'writes t3', 'writes t2']);
  });
});
