-- One transcript segment per call, turn and speaker; is_final is false only
-- while no final segment has been seen (README "transcripts").
create table transcripts (
  tenant_id uuid not null,
  call_id uuid not null,
  turn_id text not null,
  speaker text not null,
  is_final boolean not null,
  text text not null,
  start_ms integer,
  end_ms integer,
  confidence double precision,
  language text,
  occurred_at timestamptz not null,
  precedence text not null,
  primary key (tenant_id, call_id, turn_id, speaker)
);

alter table transcripts enable row level security;
alter table transcripts force row level security;
create policy transcripts_tenant on transcripts
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on transcripts to earshot_app;
grant select, insert, update on transcripts to earshot_projector;
