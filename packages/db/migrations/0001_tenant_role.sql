-- The role tenant-scoped transactions switch to (SET LOCAL ROLE). It cannot
-- log in, owns nothing and cannot bypass row-level security. Roles are global
-- to the server, so several databases (and concurrent boots) may race to create it.
do $$
begin
  create role earshot_app nologin noinherit nobypassrls;
exception when duplicate_object or unique_violation then null;
end $$;

-- The connecting user (owner of the tables) must be able to switch to it.
do $$
begin
  execute format('grant earshot_app to %I', current_user);
exception when duplicate_object or unique_violation then null;
end $$;

grant usage on schema public to earshot_app;
alter default privileges in schema public grant select on tables to earshot_app;
