-- Incidents, created and then updated field by field (README "incidents").
create table incidents (
  tenant_id uuid not null,
  id text not null,
  title text not null,
  severity text not null,
  status text not null,
  description text,
  affected_agents text[] not null,
  affected_calls text[] not null,
  started_at timestamptz,
  opened_by text,
  resolved_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  notes jsonb not null,
  facts jsonb not null,
  revision bigint not null,
  primary key (tenant_id, id)
);
create index incidents_by_started on incidents (tenant_id, started_at desc, id);

alter table incidents enable row level security;
alter table incidents force row level security;
create policy incidents_tenant on incidents
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on incidents to earshot_app;
grant select, insert, update on incidents to earshot_projector;
