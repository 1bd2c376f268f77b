-- One row per agent turn: latency parts and interruptions (README "turns").
create table turns (
  tenant_id uuid not null,
  call_id uuid not null,
  turn_id text not null,
  agent_id text not null,
  occurred_at timestamptz not null,
  asr_ms integer not null,
  llm_ms integer not null,
  tts_ms integer not null,
  total_ms integer not null,
  interrupted boolean not null,
  text text,
  model text,
  tokens_in integer,
  tokens_out integer,
  llm_ttft_ms integer,
  tts_ttfb_ms integer,
  eou_delay_ms integer,
  precedence text not null,
  primary key (tenant_id, call_id, turn_id)
);

alter table turns enable row level security;
alter table turns force row level security;
create policy turns_tenant on turns
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on turns to earshot_app;
grant select, insert, update on turns to earshot_projector;
