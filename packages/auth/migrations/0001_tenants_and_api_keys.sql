-- Tenants (organizations) and their API keys. Operator tables: the gateway
-- looks a key up before it knows the tenant, so they carry no tenant policy.
create table tenants (
  id uuid primary key,
  name text not null,
  -- AES-256-GCM under EARSHOT_MASTER_KEY: 12-byte nonce, 16-byte tag, ciphertext.
  webhook_secret bytea not null,
  -- During a rotation the previous secret still verifies until it expires.
  previous_webhook_secret bytea,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null default now(),
  check ((previous_webhook_secret is null) = (previous_secret_expires_at is null))
);

create table api_keys (
  id uuid primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  name text not null,
  -- The leading characters of the key, shown to people; the key itself is never stored.
  display_prefix text not null,
  key_hash bytea not null unique,
  scopes text[] not null,
  environment text not null check (environment in ('production', 'staging')),
  -- Empty means any address.
  ip_allowlist cidr[] not null default '{}',
  status text not null default 'active' check (status in ('active', 'revoked')),
  expires_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);

create index api_keys_tenant on api_keys (tenant_id);
