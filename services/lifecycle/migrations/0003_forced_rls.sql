-- Tenant data settings force row-level security (issue #20): the operator's
-- routes write one tenant's settings with the tenant set, and the background
-- jobs, which read every tenant's, read them as earshot_platform.
alter table tenant_data_settings force row level security;
create policy tenant_data_settings_platform on tenant_data_settings to earshot_platform using (true);
grant select on tenant_data_settings to earshot_platform;
