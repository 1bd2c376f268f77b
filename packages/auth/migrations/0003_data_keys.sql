-- Data keys seal the personal fields of events before they are appended
-- (packages/events sealed-fields). A tenant's key is wrapped by the master
-- key; each call's key is wrapped by its tenant's key, so rotating the master
-- key re-wraps one row per tenant and never rewrites the log. Erasure deletes
-- rows: a tenant's with the tenant (the cascade, and deleteTenant's sweep of
-- every tenant_id table), a call's on its own.
create table data_keys (
  id text primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  -- Null for the tenant's own key.
  call_id text,
  wrapped bytea not null,
  created_at timestamptz not null default now()
);
create unique index data_keys_tenant on data_keys (tenant_id) where call_id is null;
create unique index data_keys_call on data_keys (tenant_id, call_id) where call_id is not null;
