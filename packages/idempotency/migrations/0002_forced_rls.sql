-- Idempotency keys force row-level security (issue #20). A tenant sees its own
-- keys; claims, answers and sweeps are batched across tenants in one
-- statement, so they run as earshot_platform, whose policy sees every row.
alter table idempotency_keys enable row level security;
alter table idempotency_keys force row level security;
create policy idempotency_keys_tenant on idempotency_keys
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
create policy idempotency_keys_platform on idempotency_keys to earshot_platform using (true) with check (true);
grant select, insert, update, delete on idempotency_keys to earshot_platform;
