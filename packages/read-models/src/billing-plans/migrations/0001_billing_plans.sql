-- The price plan in force per tenant (README "billing_plans"); a tenant
-- without a row is on the default plan.
create table billing_plans (
  tenant_id uuid not null primary key,
  plan_id text not null,
  currency text not null,
  base_fee_cents bigint not null,
  period text not null,
  prices jsonb not null,
  changed_by text,
  changed_at timestamptz not null,
  precedence text not null
);

alter table billing_plans enable row level security;
alter table billing_plans force row level security;
create policy billing_plans_tenant on billing_plans
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on billing_plans to earshot_app;
grant select, insert, update on billing_plans to earshot_projector;
