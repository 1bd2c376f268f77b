-- Requests (or events) counted per bucket and one-minute window, shared by
-- every process: each adds its local count in batches and reads the total back.
create table rate_limit_windows (
  bucket text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (bucket, window_start)
);

create index rate_limit_windows_start on rate_limit_windows (window_start);
