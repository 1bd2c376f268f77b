-- One row per call (README "calls"). Columns are derived from `facts`, the
-- merged knowledge of every event about the call; `revision` guards the
-- read-merge-write of concurrent projectors.
create table calls (
  tenant_id uuid not null,
  id uuid not null,
  agent_id text not null,
  provider text not null,
  provider_call_id text not null,
  status text not null check (status in ('in_progress', 'completed', 'failed', 'abandoned', 'escalated')),
  started_at timestamptz not null,
  answered_at timestamptz,
  ended_at timestamptz,
  last_event_at timestamptz not null,
  duration_ms bigint,
  quality_score double precision,
  latency_asr_ms integer,
  latency_llm_ms integer,
  latency_tts_ms integer,
  latency_total_ms integer,
  turn_count integer not null,
  interruptions integer not null,
  tool_call_count integer not null,
  provider_error_count integer not null,
  end_reason text,
  disconnection_reason text,
  failure_code text,
  failure_message text,
  transfer_target text,
  handoff_target text,
  recording_id text,
  recording_url text,
  cost_usd double precision,
  success boolean,
  summary text,
  sentiment text,
  direction text,
  from_number text,
  to_number text,
  agent_version text,
  workflow_id text,
  customer_id text,
  metadata jsonb,
  facts jsonb not null,
  revision bigint not null,
  primary key (tenant_id, id)
);
create unique index calls_by_provider_call on calls (tenant_id, provider, provider_call_id);
-- GET /calls: keyset pages by startedAt, durationMs or qualityScore (id breaks ties), filtered by status or agent.
create index calls_by_started on calls (tenant_id, started_at, id);
create index calls_by_status_started on calls (tenant_id, status, started_at, id);
create index calls_by_agent_started on calls (tenant_id, agent_id, started_at, id);
create index calls_by_duration on calls (tenant_id, duration_ms, id);
create index calls_by_quality on calls (tenant_id, quality_score, id);
-- /realtime: calls still in progress.
create index calls_in_progress on calls (tenant_id, last_event_at) where status = 'in_progress';

alter table calls enable row level security;
alter table calls force row level security;
create policy calls_tenant on calls
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on calls to earshot_app;
grant select, insert, update on calls to earshot_projector;
