-- The operator's data settings per tenant (PUT /admin/tenants/{id}/data-settings):
-- how long a call may go silent before it is abandoned, and what the tenant's
-- read models keep (RetentionSchema: per kind, days, 'forever' or null). Null
-- takes the plan's, then the deployment's (EARSHOT_ABANDON_AFTER,
-- EARSHOT_RETENTION_*). Deleted with the tenant. Row-level security keeps
-- tenants apart for the tenant role; the background jobs read every row as
-- the owner, so it is not forced.
create table tenant_data_settings (
  tenant_id uuid primary key,
  abandon_after_ms bigint,
  retention jsonb not null,
  updated_at timestamptz not null
);
alter table tenant_data_settings enable row level security;
create policy tenant_data_settings_tenant on tenant_data_settings
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);

-- What tenants on a price plan keep (PUT /admin/plans/{planId}/retention), by
-- the plan id of the tenant's plan in force (billing_plans; `default` without one).
create table plan_retention (
  plan_id text primary key,
  retention jsonb not null,
  updated_at timestamptz not null
);
