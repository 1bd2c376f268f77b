-- Per tenant and day (UTC): events ingested, calls and their milliseconds,
-- API (ingest) requests (README "usage_meters").
create table usage_meters (
  tenant_id uuid not null,
  day date not null,
  events_ingested bigint not null default 0,
  calls bigint not null default 0,
  call_ms bigint not null default 0,
  api_requests bigint not null default 0,
  primary key (tenant_id, day)
);

alter table usage_meters enable row level security;
alter table usage_meters force row level security;
create policy usage_meters_tenant on usage_meters
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on usage_meters to earshot_app;
grant select, insert, update on usage_meters to earshot_projector;
