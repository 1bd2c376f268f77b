-- Hours and days of metric_rollups folded into one row per metric and agent
-- (and one for all agents), so a series over 30 days merges a few hundred
-- rows, not every minute. Folding happens off the projector's write path
-- (services/query's folder); the projector only notes which hours it touched.
-- A fold is used only while no change to its span is pending, so a series
-- read from folds and edge minutes equals the one read from minutes alone.

-- Every statement that writes metric_rollups adds one row per (tenant, hour)
-- it touched; the folder deletes the ones it has folded. Ids order the notes,
-- so a note committed while the folder worked survives it.
create table metric_rollup_changes (
  id bigint generated always as identity,
  tenant_id uuid not null,
  hour timestamptz not null,
  primary key (tenant_id, hour, id)
);

-- span 'hour' or 'day'; all_agents rows sum every agent (agent_id '').
create table metric_rollup_folds (
  tenant_id uuid not null,
  span text not null check (span in ('hour', 'day')),
  start timestamptz not null,
  metric text not null,
  all_agents boolean not null,
  agent_id text not null,
  count bigint not null,
  sum double precision,
  min double precision,
  max double precision,
  sketch jsonb,
  primary key (tenant_id, span, metric, all_agents, start, agent_id)
);

-- The spans folded: a span folded with nothing in it has no rows above, and is still folded.
create table metric_rollup_folded (
  tenant_id uuid not null,
  span text not null check (span in ('hour', 'day')),
  start timestamptz not null,
  primary key (tenant_id, span, start)
);

-- In public whatever the search path: a replay builds its copy in another
-- schema and moves the tables into public, and a function left behind would
-- keep that schema from being dropped. The insert goes to the changes table
-- beside the rollups written, wherever they are.
create or replace function public.earshot_note_rollup_changes() returns trigger language plpgsql as $$
begin
  execute format('insert into %I.metric_rollup_changes (tenant_id, hour) select distinct tenant_id, date_trunc(''hour'', minute, ''UTC'') from changed', tg_table_schema);
  return null;
end $$;

create trigger metric_rollups_inserted after insert on metric_rollups
  referencing new table as changed for each statement execute function public.earshot_note_rollup_changes();
create trigger metric_rollups_updated after update on metric_rollups
  referencing new table as changed for each statement execute function public.earshot_note_rollup_changes();

alter table metric_rollup_changes enable row level security;
alter table metric_rollup_changes force row level security;
create policy metric_rollup_changes_tenant on metric_rollup_changes
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
alter table metric_rollup_folds enable row level security;
alter table metric_rollup_folds force row level security;
create policy metric_rollup_folds_tenant on metric_rollup_folds
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
alter table metric_rollup_folded enable row level security;
alter table metric_rollup_folded force row level security;
create policy metric_rollup_folded_tenant on metric_rollup_folded
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);

grant select on metric_rollup_changes, metric_rollup_folds, metric_rollup_folded to earshot_app;
grant select, insert, delete on metric_rollup_changes to earshot_projector;
grant select, insert, update, delete on metric_rollup_folds, metric_rollup_folded to earshot_projector;
