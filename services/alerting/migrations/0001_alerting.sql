-- Where each rule stands between evaluations (bookkeeping of the evaluator:
-- not tenant-facing, so no row-level security, like the projector's positions).
create table alert_rule_states (
  tenant_id uuid not null,
  rule_id text not null,
  breaching_since timestamptz,
  alert_id text,
  incident_id text,
  last_value double precision,
  evaluated_at timestamptz not null,
  primary key (tenant_id, rule_id)
);
-- Read inside the tenant's transaction, next to its rules.
grant select on alert_rule_states to earshot_app;

-- One signed webhook per tenant for its alert notifications.
create table alert_webhooks (
  tenant_id uuid primary key,
  url text not null,
  enabled boolean not null,
  updated_at timestamptz not null
);
alter table alert_webhooks enable row level security;
alter table alert_webhooks force row level security;
create policy alert_webhooks_tenant on alert_webhooks
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select, insert, update on alert_webhooks to earshot_app;

-- Every attempt to deliver a notification.
create table alert_notifications (
  tenant_id uuid not null,
  id uuid not null,
  event_key text not null,
  event_type text not null,
  alert_id text not null,
  attempt int not null,
  url text not null,
  status text not null check (status in ('delivered', 'failed', 'retrying')),
  http_status int,
  error text,
  duration_ms int not null,
  at timestamptz not null,
  primary key (tenant_id, id)
);
create index alert_notifications_by_at on alert_notifications (tenant_id, at desc, id);
alter table alert_notifications enable row level security;
alter table alert_notifications force row level security;
create policy alert_notifications_tenant on alert_notifications
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select, insert on alert_notifications to earshot_app;
