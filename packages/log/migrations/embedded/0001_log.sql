-- The embedded EventLog: Kafka's model (topics, partitions, offsets, consumer
-- group positions) kept in PostgreSQL, for the zero-setup mode.
create schema if not exists earshot_log;

create table earshot_log.partitions (
  topic text not null,
  partition int not null,
  next_offset bigint not null default 0,
  primary key (topic, partition)
);

create table earshot_log.records (
  topic text not null,
  partition int not null,
  "offset" bigint not null,
  key text not null,
  value bytea not null,
  headers jsonb not null default '{}',
  stored_at timestamptz not null default clock_timestamp(),
  primary key (topic, partition, "offset")
);
create index records_by_time on earshot_log.records (topic, partition, stored_at);

create table earshot_log.committed (
  consumer_group text not null,
  topic text not null,
  partition int not null,
  next_offset bigint not null,
  primary key (consumer_group, topic, partition)
);

-- A consumer owns a partition while its lease is fresh, so two consumers of
-- one group never read the same partition at once.
create table earshot_log.leases (
  consumer_group text not null,
  topic text not null,
  partition int not null,
  owner text not null,
  expires_at timestamptz not null,
  primary key (consumer_group, topic, partition)
);
