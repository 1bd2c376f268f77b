-- An agent's minute is one row per log partition that wrote to it (its shard),
-- so batches of different partitions add to it side by side rather than each
-- waiting on the row lock another holds until it commits. Readers add the
-- shards up as they add minutes up. Rows written before are shard 0.
alter table metric_rollups add column shard integer not null default 0;
alter table metric_rollups drop constraint metric_rollups_pkey, add primary key (tenant_id, metric, minute, agent_id, shard);
