-- The role the projector writes as (SET LOCAL ROLE), tenant by tenant: like
-- earshot_app it cannot bypass row-level security, so even the writer only
-- touches the rows of the tenant it has set. Roles are global to the server.
do $$
begin
  create role earshot_projector nologin noinherit nobypassrls;
exception when duplicate_object or unique_violation then null;
end $$;

do $$
begin
  execute format('grant earshot_projector to %I', current_user);
exception when duplicate_object or unique_violation then null;
end $$;

grant usage on schema public to earshot_projector;

-- Latency sketches (DDSketch-style, 1% relative accuracy): a jsonb map from
-- bucket index to count, "z" for zeros. Merging adds counts, so the sketches
-- of single minutes merge into the sketch of any range. Same rules as
-- services/projector/src/read-models/metric-rollups/sketch.ts.
create or replace function earshot_sketch_merge(a jsonb, b jsonb) returns jsonb
language sql immutable parallel safe as $$
  select case
    when a is null then b
    when b is null then a
    else (
      select jsonb_object_agg(key, total)
      from (
        select key, sum(value::bigint) as total
        from (select key, value from jsonb_each_text(a) union all select key, value from jsonb_each_text(b)) bins
        group by key
      ) merged
    )
  end
$$;

create or replace aggregate earshot_sketch_union(jsonb) (sfunc = earshot_sketch_merge, stype = jsonb, parallel = safe);

-- The q-quantile (0 to 1) of a sketch, within 1% of the true value.
create or replace function earshot_sketch_quantile(sketch jsonb, q double precision) returns double precision
language sql immutable parallel safe as $$
  select case when idx is null then 0 else 2 * power(1.01 / 0.99, idx) / (1.01 / 0.99 + 1) end
  from (
    select idx, sum(n) over (order by idx nulls first) as running, sum(n) over () as total
    from (select case when key = 'z' then null else key::int end as idx, value::bigint as n from jsonb_each_text(sketch)) bins
  ) ranked
  where running > q * (total - 1)
  order by idx nulls first
  limit 1
$$;

grant execute on function earshot_sketch_merge(jsonb, jsonb), earshot_sketch_quantile(jsonb, double precision) to earshot_app, earshot_projector;
grant execute on function earshot_sketch_union(jsonb) to earshot_app, earshot_projector;
