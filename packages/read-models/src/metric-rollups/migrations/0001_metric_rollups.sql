-- Per tenant, agent ('' when none), metric and minute: count, sum, min, max
-- and a latency sketch (README "metric_rollups"). Percentiles over any range:
-- earshot_sketch_quantile(earshot_sketch_union(sketch), 0.95).
create table metric_rollups (
  tenant_id uuid not null,
  metric text not null,
  agent_id text not null,
  minute timestamptz not null,
  count bigint not null,
  sum double precision,
  min double precision,
  max double precision,
  sketch jsonb,
  primary key (tenant_id, metric, minute, agent_id)
);

alter table metric_rollups enable row level security;
alter table metric_rollups force row level security;
create policy metric_rollups_tenant on metric_rollups
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on metric_rollups to earshot_app;
grant select, insert, update on metric_rollups to earshot_projector;
