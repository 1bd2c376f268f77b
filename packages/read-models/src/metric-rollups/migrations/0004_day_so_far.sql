-- A day is also folded before it closes, as far as its closed hours go, so a
-- series through today reads the day so far as one fold rather than an hour
-- fold per closed hour (up to 23 sketches to merge on every read). Its
-- marker says how far: the fold covers [start, until). A marker without
-- `until` covers its whole span, as every marker did before.
alter table metric_rollup_folded add column until timestamptz;
