-- Deployments of agent versions (README "deployments").
create table deployments (
  tenant_id uuid not null,
  id text not null,
  agent text not null,
  version text not null,
  deployed_at timestamptz not null,
  previous_version text,
  environment text,
  description text,
  deployed_by text,
  precedence text not null,
  primary key (tenant_id, id)
);
create index deployments_by_deployed on deployments (tenant_id, deployed_at desc, id);
create index deployments_by_agent on deployments (tenant_id, agent, deployed_at desc);

alter table deployments enable row level security;
alter table deployments force row level security;
create policy deployments_tenant on deployments
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on deployments to earshot_app;
grant select, insert, update on deployments to earshot_projector;
