-- The stored-data meter: bytes of the event records a day added to the log.
alter table usage_meters add column stored_bytes bigint not null default 0;
