-- Invoices of closed billing periods (README "billing_invoices").
create table billing_invoices (
  tenant_id uuid not null,
  id text not null,
  number bigint not null,
  period_start timestamptz not null,
  period_end timestamptz not null,
  status text not null,
  plan_id text not null,
  currency text not null,
  lines jsonb not null,
  subtotal_cents bigint not null,
  base_fee_cents bigint not null,
  total_cents bigint not null,
  issued_at timestamptz not null,
  precedence text not null,
  primary key (tenant_id, id)
);
create index billing_invoices_by_period on billing_invoices (tenant_id, period_start desc, id);

alter table billing_invoices enable row level security;
alter table billing_invoices force row level security;
create policy billing_invoices_tenant on billing_invoices
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on billing_invoices to earshot_app;
grant select, insert, update on billing_invoices to earshot_projector;
