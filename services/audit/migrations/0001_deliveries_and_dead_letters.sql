-- The delivery audit log and the dead-letter store, filled from earshot.deliveries
-- and earshot.dlq. The audit service writes and reads them as the table owner for
-- the operator (every tenant); tenants read through the earshot_app role, which
-- row-level security restricts to their own rows. RLS is enabled but not forced,
-- so the owner (the operator side) is not bound by it.
create table deliveries (
  tenant_id uuid not null,
  id text not null,
  time timestamptz not null,
  provider text,
  event_type text,
  idempotency_key text,
  outcome text not null,
  http_status integer not null,
  duration_ms integer not null,
  event_id text,
  reason text,
  primary key (tenant_id, id)
);
create index deliveries_by_time on deliveries (time desc, id desc);
create index deliveries_by_tenant_time on deliveries (tenant_id, time desc, id desc);
alter table deliveries enable row level security;
create policy deliveries_tenant on deliveries
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on deliveries to earshot_app;

-- The spec's "Delivery audit log entry" (time, event, status, HTTP status, ms) for a
-- tenant's own reads. security_invoker makes the view apply the caller's row-level
-- security rather than its owner's.
create view tenant_deliveries with (security_invoker = true) as
  select tenant_id, id, time, event_type as event, outcome as status, http_status, duration_ms, provider, idempotency_key, event_id, reason
    from deliveries;
grant select on tenant_deliveries to earshot_app;

create table dead_letters (
  id text primary key,
  -- Null when the projector could not tell whose record it was.
  tenant_id uuid,
  provider text,
  received_at timestamptz not null,
  source text not null,
  reason text not null,
  fields jsonb not null default '[]',
  body bytea not null,
  event_type text,
  idempotency_key text,
  topic text,
  partition integer,
  "offset" bigint,
  -- held until a replay is accepted; a replay that fails again keeps it held with the new reason.
  status text not null default 'held' check (status in ('held', 'replayed')),
  replay_attempts integer not null default 0,
  last_replayed_at timestamptz,
  replayed_event_ids text[] not null default '{}',
  recorded_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index dead_letters_by_time on dead_letters (received_at desc, id desc);
create index dead_letters_by_tenant on dead_letters (tenant_id, received_at desc, id desc);
alter table dead_letters enable row level security;
create policy dead_letters_tenant on dead_letters
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on dead_letters to earshot_app;

-- Next offset to apply per partition: committed with the rows, so a crash or a
-- rebalance neither loses nor doubles a record.
create table audit_positions (
  topic text not null,
  partition integer not null,
  next_offset bigint not null,
  updated_at timestamptz not null default now(),
  primary key (topic, partition)
);
revoke all on audit_positions from earshot_app;
