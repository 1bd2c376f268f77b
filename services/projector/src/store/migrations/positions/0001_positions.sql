-- Where the read models are up to in the log: the next offset to apply per
-- partition, written in the same transaction as the rows it produced. Not
-- tenant data, so no row-level security.
create table projector_positions (
  topic text not null,
  partition integer not null,
  next_offset bigint not null,
  updated_at timestamptz not null default now(),
  primary key (topic, partition)
);
grant select, insert, update on projector_positions to earshot_projector;

-- Events already applied, by tenant and idempotency key: a repeated event
-- (a provider's retry, a re-delivered record) changes nothing.
create table applied_events (
  tenant_id uuid not null,
  idempotency_key text not null,
  primary key (tenant_id, idempotency_key)
);
alter table applied_events enable row level security;
alter table applied_events force row level security;
create policy applied_events_tenant on applied_events
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select, insert on applied_events to earshot_projector;
