-- Alert rules as their latest change left them (README "alert_rules").
create table alert_rules (
  tenant_id uuid not null,
  id text not null,
  name text,
  metric text not null,
  agent_id text,
  comparison text not null,
  threshold double precision not null,
  window_ms bigint not null,
  for_ms bigint not null,
  severity text,
  enabled boolean not null,
  description text,
  deleted boolean not null,
  changed_by text,
  changed_at timestamptz not null,
  precedence text not null,
  primary key (tenant_id, id)
);
create index alert_rules_live on alert_rules (tenant_id, id) where not deleted;

alter table alert_rules enable row level security;
alter table alert_rules force row level security;
create policy alert_rules_tenant on alert_rules
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on alert_rules to earshot_app;
grant select, insert, update on alert_rules to earshot_projector;
