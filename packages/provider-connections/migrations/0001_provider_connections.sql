-- A tenant's connections to voice providers: where each provider posts
-- (/webhooks/providers/<provider>/<id>) and the credentials its signature is
-- checked with, sealed under the master key (AES-256-GCM) like webhook secrets.
create table provider_connections (
  tenant_id uuid not null references tenants (id) on delete cascade,
  id uuid primary key,
  provider text not null check (provider in ('retell', 'vapi', 'twilio', 'elevenlabs', 'bland', 'standard-webhooks')),
  name text not null,
  status text not null default 'active' check (status in ('active', 'disabled')),
  credentials bytea not null,
  -- During a rotation the previous credentials still verify until they expire.
  previous_credentials bytea,
  previous_credentials_expire_at timestamptz,
  mapping jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  credentials_rotated_at timestamptz,
  check ((previous_credentials is null) = (previous_credentials_expire_at is null))
);
-- GET /providers: newest first, keyset by (created_at, id).
create index provider_connections_by_created on provider_connections (tenant_id, created_at desc, id desc);

alter table provider_connections enable row level security;
alter table provider_connections force row level security;
create policy provider_connections_tenant on provider_connections
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
-- A provider's request names no tenant, only the connection: a transaction
-- that sets earshot.provider_connection_id reads that one connection (and
-- learns its tenant), nothing else, and writes nothing.
create policy provider_connections_delivery on provider_connections for select
  using (id = nullif(current_setting('earshot.provider_connection_id', true), '')::uuid);
grant select, insert, update, delete on provider_connections to earshot_app;
