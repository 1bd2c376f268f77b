-- Invoice history, served by GET /billing/invoices. The projector has no
-- invoices; billing (issue 9) writes them here. One row per invoice, with
-- its lines as JSON.
create table invoices (
  tenant_id uuid not null,
  id text not null,
  period_start date not null,
  period_end date not null,
  currency text not null default 'USD',
  amount_due numeric(14, 2) not null,
  status text not null check (status in ('draft', 'open', 'paid', 'void', 'uncollectible')),
  issued_at timestamptz not null,
  lines jsonb not null default '[]',
  primary key (tenant_id, id)
);
create index invoices_by_issued on invoices (tenant_id, issued_at desc, id);

alter table invoices enable row level security;
alter table invoices force row level security;
create policy invoices_tenant on invoices
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on invoices to earshot_app;
