-- Rule states force row-level security (issue #20): the evaluator reads and
-- writes them in the tenant's own transaction, as it does the rules.
alter table alert_rule_states enable row level security;
alter table alert_rule_states force row level security;
create policy alert_rule_states_tenant on alert_rule_states
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant insert, update on alert_rule_states to earshot_app;
