-- The folder merges the shards of settled minutes into shard 0, deleting the others.
grant delete on metric_rollups to earshot_projector;
