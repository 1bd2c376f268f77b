-- Background rounds that must run in one process at a time (alert evaluation,
-- closing billing periods, folding metrics, retention, abandoning silent
-- calls) run under a lease: its holder renews it; when the holder stops
-- renewing (it died, hung or lost the database), another process takes it
-- once it expires. `token` grows with every change of holder, so work done
-- under a lease can check that no one has taken it since (a fencing token).
-- Times are the database's clock, never a process's.
create table leases (
  name text primary key,
  holder text not null,
  token bigint not null,
  acquired_at timestamptz not null,
  expires_at timestamptz not null
);
