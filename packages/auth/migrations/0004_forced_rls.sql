-- Keys and data keys force row-level security (issue #20): the owner too sees
-- one tenant's rows, with the tenant set, and earshot_platform sees every row
-- for what must cross tenants: the key lookup before a tenant is known, the
-- operator's tenant list, the usage flush, data keys by id, the master key's
-- rotation. The tenant role reads only its own keys, as before.
alter table api_keys enable row level security;
alter table api_keys force row level security;
create policy api_keys_tenant on api_keys
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
create policy api_keys_platform on api_keys to earshot_platform using (true) with check (true);

alter table data_keys enable row level security;
alter table data_keys force row level security;
create policy data_keys_tenant on data_keys
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
create policy data_keys_platform on data_keys to earshot_platform using (true) with check (true);

grant select, insert, update on api_keys, data_keys to earshot_platform;
-- What those statements touch besides: the tenant a key names, the usage it
-- adds, and the change counter the key triggers bump.
grant select, insert, update on tenants, api_key_usage to earshot_platform;
grant select, update on credential_changes to earshot_platform;
