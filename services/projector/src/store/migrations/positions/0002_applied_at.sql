-- When each event was applied, so the daily retention job can forget keys
-- older than EARSHOT_DEDUPE_WINDOW: by then the record is far below the
-- committed position (a re-delivery is skipped by position) and the gateway
-- no longer holds the key (a resent envelope would be appended anew anyway).
alter table applied_events add column applied_at timestamptz not null default now();
create index applied_events_by_time on applied_events (applied_at);
