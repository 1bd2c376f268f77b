-- Who did what to a tenant's data, and when: every write through the API
-- (outcomes, incidents, deployments) and every operator action. Written as
-- the tenant role in a tenant-scoped transaction, so row-level security
-- decides which tenant an entry can be written for, and read back.
create table audit_entries (
  tenant_id uuid not null,
  id uuid not null,
  at timestamptz not null,
  actor_kind text not null check (actor_kind in ('apiKey', 'operator')),
  key_id uuid,
  key_name text,
  action text not null,
  target text,
  ip text,
  request_id text,
  detail jsonb not null default '{}',
  primary key (tenant_id, id),
  check ((actor_kind = 'apiKey') = (key_id is not null))
);
-- GET /audit: newest first, keyset by (at, id).
create index audit_entries_by_at on audit_entries (tenant_id, at desc, id);

alter table audit_entries enable row level security;
alter table audit_entries force row level security;
create policy audit_entries_tenant on audit_entries
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select, insert on audit_entries to earshot_app;
