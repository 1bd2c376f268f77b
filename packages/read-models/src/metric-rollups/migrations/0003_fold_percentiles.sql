-- The percentiles the metric catalogue serves, read from each fold's sketch
-- by the folder when it writes the fold. A series bucket that is one whole
-- fold (a day at a daily interval, an hour at an hourly one) then reads one
-- number instead of the sketch, whose rendering and parsing were most of
-- what a 30-day percentile series cost. A fold without them (folded before
-- this migration, or with no sketch) is read by its sketch, as before.
alter table metric_rollup_folds
  add column p50 double precision,
  add column p95 double precision,
  add column p99 double precision;
