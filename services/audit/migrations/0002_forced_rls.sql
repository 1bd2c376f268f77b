-- Deliveries and dead letters force row-level security (issue #20), so the
-- owner no longer reads every tenant's rows by default. The audit consumer
-- stores batches of every tenant, and the operator's routes list and replay
-- them, as earshot_platform, whose policy sees every row (dead letters that
-- name no tenant too); tenants keep reading their own as earshot_app.
alter table deliveries force row level security;
alter table dead_letters force row level security;
create policy deliveries_platform on deliveries to earshot_platform using (true) with check (true);
create policy dead_letters_platform on dead_letters to earshot_platform using (true) with check (true);
grant select, insert, update, delete on deliveries, dead_letters to earshot_platform;
grant select, insert, update on audit_positions to earshot_platform;
