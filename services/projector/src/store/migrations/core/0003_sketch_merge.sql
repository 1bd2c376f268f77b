-- Merges a batch's sketch into a stored one by walking only the batch's bins:
-- the stored sketch keeps its others as they are. The union of both and a
-- group by took ~35 µs a merge of a 31-bin sketch, ~11 this way, and a
-- counter update merges one for each measured metric of each agent minute a
-- batch touches (bench projector --concurrent-calls 1000: 73,929 updates for
-- 200,000 events). Same result; commutative still, so aggregates keep using it.
create or replace function earshot_sketch_merge(a jsonb, b jsonb) returns jsonb
language sql immutable parallel safe as $$
  select case
    when a is null then b
    when b is null then a
    else a || coalesce((select jsonb_object_agg(key, coalesce((a ->> key)::bigint, 0) + value::bigint) from jsonb_each_text(b)), '{}')
  end
$$;
