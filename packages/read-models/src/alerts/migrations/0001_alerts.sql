-- Alerts, firing until resolved (README "alerts").
create table alerts (
  tenant_id uuid not null,
  id text not null,
  rule_id text not null,
  rule_name text,
  metric text not null,
  comparison text,
  threshold double precision,
  value double precision,
  window_ms bigint,
  severity text,
  agent_id text,
  message text,
  status text not null check (status in ('firing', 'resolved')),
  fired_at timestamptz,
  resolved_at timestamptz,
  resolved_value double precision,
  resolution text,
  resolved_by text,
  facts jsonb not null,
  revision bigint not null,
  primary key (tenant_id, id)
);
create index alerts_by_fired on alerts (tenant_id, fired_at desc, id);
create index alerts_firing on alerts (tenant_id, fired_at desc) where status = 'firing';

alter table alerts enable row level security;
alter table alerts force row level security;
create policy alerts_tenant on alerts
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on alerts to earshot_app;
grant select, insert, update on alerts to earshot_projector;
