-- Spans of a call: tool calls, workflow states, handoffs, audio streams and
-- provider errors (README "traces").
create table traces (
  tenant_id uuid not null,
  call_id uuid not null,
  kind text not null check (kind in ('tool_call', 'workflow_state', 'handoff', 'audio_stream', 'provider_error')),
  trace_id text not null,
  name text not null,
  status text not null,
  turn_id text,
  started_at timestamptz,
  ended_at timestamptz,
  duration_ms bigint,
  detail jsonb not null,
  facts jsonb not null,
  revision bigint not null,
  primary key (tenant_id, call_id, kind, trace_id)
);
create index traces_by_call_started on traces (tenant_id, call_id, started_at);

alter table traces enable row level security;
alter table traces force row level security;
create policy traces_tenant on traces
  using (tenant_id = nullif(current_setting('earshot.tenant_id', true), '')::uuid);
grant select on traces to earshot_app;
grant select, insert, update on traces to earshot_projector;
