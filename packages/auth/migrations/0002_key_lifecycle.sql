-- The whole lifecycle of keys and tenants: workspace and creator of a key,
-- rotation with an overlap (the previous key's hash keeps working until its
-- time), suspended tenants, per-minute usage, and one change counter that
-- every process polls to drop the keys it keeps as soon as one changes.
alter table tenants
  add column status text not null default 'active' check (status in ('active', 'suspended')),
  add column suspended_at timestamptz;

alter table api_keys
  add column workspace text not null default 'default',
  add column created_by_kind text not null default 'operator' check (created_by_kind in ('apiKey', 'operator')),
  add column created_by_key_id uuid,
  -- During a rotation the previous key still works until previous_key_expires_at.
  add column previous_key_hash bytea unique,
  add column previous_key_expires_at timestamptz,
  add constraint api_keys_previous_key check ((previous_key_hash is null) = (previous_key_expires_at is null));

-- Requests per key and minute, flushed in batches by every process that
-- authenticates; 24-hour usage is the sum of the last 1,440 minutes.
create table api_key_usage (
  key_id uuid not null references api_keys (id) on delete cascade,
  minute timestamptz not null,
  requests integer not null,
  primary key (key_id, minute)
);

-- Bumped in the transaction that revokes, rotates, restricts or suspends, so
-- a process sees the new version only once the change is visible too.
create table credential_changes (
  singleton boolean primary key default true check (singleton),
  version bigint not null
);
insert into credential_changes (singleton, version) values (true, 0);

create function note_credential_change() returns trigger language plpgsql as $$
begin
  update credential_changes set version = version + 1;
  return null;
end
$$;

-- last_used_at is not in the list: the usage flush must not empty every cache.
create trigger api_keys_changed
  after update of status, expires_at, scopes, ip_allowlist, environment, key_hash, previous_key_hash, previous_key_expires_at, tenant_id or delete
  on api_keys for each statement execute function note_credential_change();
create trigger tenants_changed
  after update of status, webhook_secret, previous_webhook_secret, previous_secret_expires_at or delete
  on tenants for each statement execute function note_credential_change();

-- Keys that held every scope before keys:read, keys:write and alerts:write
-- existed (each tenant's first key, the demonstration key) keep holding every scope.
update api_keys
   set scopes = array(select distinct unnest(scopes || array['keys:read', 'keys:write', 'alerts:write']) order by 1)
 where scopes @> array['events:write', 'calls:read', 'metrics:read', 'exports:read', 'outcomes:read', 'outcomes:write', 'incidents:read',
                       'incidents:write', 'deployments:read', 'deployments:write', 'alerts:read', 'usage:read', 'billing:read', 'audit:read']
   and not scopes @> array['keys:read', 'keys:write', 'alerts:write'];
