-- Turns merge from parts (event version 2026-11-24): each report may carry some
-- latency parts only, so the row keeps its merged facts and a revision (as
-- calls do), the parts become nullable, and the stage breakdown gains the
-- transcription delay, the end-to-end latency and what no stage accounts for.
alter table turns
  add column facts jsonb,
  add column revision bigint not null default 0,
  add column transcription_delay_ms integer,
  add column e2e_ms integer,
  add column unattributed_ms integer,
  alter column asr_ms drop not null,
  alter column llm_ms drop not null,
  alter column tts_ms drop not null,
  alter column total_ms drop not null,
  drop column precedence;
