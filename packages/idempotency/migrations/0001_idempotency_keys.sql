-- One row per (tenant, scope, key): the first request claims it (in_flight),
-- and its answer is kept (done) so a retry gets the same answer back.
create table idempotency_keys (
  tenant_id uuid not null,
  -- Which write the key belongs to (ingest, webhook events, outcomes...), so keys of different endpoints never collide.
  scope text not null,
  key text not null,
  request_hash bytea not null,
  state text not null check (state in ('in_flight', 'done')),
  status integer,
  response jsonb,
  created_at timestamptz not null,
  -- A claim whose holder died is taken over once this has passed.
  lease_until timestamptz not null,
  primary key (tenant_id, scope, key),
  check ((state = 'done') = (status is not null and response is not null))
);

create index idempotency_keys_created on idempotency_keys (created_at);
