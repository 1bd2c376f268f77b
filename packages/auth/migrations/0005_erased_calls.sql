-- The calls a tenant erased, and when. Erasure destroys a call's data key,
-- which reaches only what was sealed with it: events appended in the clear
-- (EARSHOT_SEAL_EVENTS=false, or before sealing existed) stay readable in the
-- log. The projector passes over such an event when the log stored it before
-- its call's erasure, so a replay does not bring the call back; events
-- stored after it make a new call, as sealed ones do with a new key.
create table erased_calls (
  tenant_id uuid not null references tenants (id) on delete cascade,
  call_id text not null,
  erased_at timestamptz not null,
  primary key (tenant_id, call_id)
);

alter table erased_calls enable row level security;
alter table erased_calls force row level security;
create policy erased_calls_tenant on erased_calls
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
create policy erased_calls_platform on erased_calls to earshot_platform using (true) with check (true);
grant select on erased_calls to earshot_platform;
