-- The role the platform's cross-tenant work switches to (SET LOCAL ROLE):
-- the key lookup before a tenant is known, idempotency claims and audit rows
-- batched across tenants, the operator's lists. Like earshot_app it cannot log
-- in, owns nothing and cannot bypass row-level security; it sees every row
-- only of the tables whose migrations give it a policy of its own.
do $$
begin
  create role earshot_platform nologin noinherit nobypassrls;
exception when duplicate_object or unique_violation then null;
end $$;

-- The connecting user may switch to it but does not inherit it: a policy for
-- earshot_platform must not apply to the owner's own statements.
do $$
begin
  execute format('grant earshot_platform to %I with inherit false, set true', current_user);
exception when duplicate_object or unique_violation then null;
end $$;

grant usage on schema public to earshot_platform;
