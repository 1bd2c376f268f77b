-- Outcomes the tenant recorded, one row per outcome id (README "outcomes").
create table outcomes (
  tenant_id uuid not null,
  id text not null,
  call_id text not null,
  agent text,
  type text not null,
  value text,
  source text,
  revenue_usd double precision,
  recorded_at timestamptz not null,
  precedence text not null,
  primary key (tenant_id, id)
);
create index outcomes_by_call on outcomes (tenant_id, call_id);
create index outcomes_by_recorded on outcomes (tenant_id, recorded_at desc, id);

alter table outcomes enable row level security;
alter table outcomes force row level security;
create policy outcomes_tenant on outcomes
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on outcomes to earshot_app;
grant select, insert, update on outcomes to earshot_projector;
