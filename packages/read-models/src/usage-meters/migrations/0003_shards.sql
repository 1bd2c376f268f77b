-- A day's meters are one row per log partition that wrote to them (its shard),
-- so batches of different partitions add to a tenant's day side by side rather
-- than each waiting on the row lock another holds until it commits. Readers
-- add the shards up. Rows written before are shard 0.
alter table usage_meters add column shard integer not null default 0;
alter table usage_meters drop constraint usage_meters_pkey, add primary key (tenant_id, day, shard);
