-- One row per day the retention job finished, with what it deleted: a run
-- that finds today's row does nothing, so the job is daily and idempotent
-- however many processes or rounds try it.
create table retention_runs (
  day date primary key,
  finished_at timestamptz not null,
  fence bigint not null,
  deleted jsonb not null
);
