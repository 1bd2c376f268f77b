-- A call's and a turn's latency under the API's field names, so that to_json
-- writes them as the API shows them: a cast to these types costs a fraction of
-- a json_build_object a row (calls.queries.ts). eouMs + llmTtftMs + ttsTtfbMs
-- + unattributedMs = e2eMs, with sttMs running alongside eouMs. Types, like the
-- functions here, outlive a replay's copy of the tables. Databases migrated
-- before this file have them from the query service's former migrations.
do $$
begin
  if to_regtype('latency_breakdown') is null then
    create type latency_breakdown as ("asrMs" integer, "llmMs" integer, "ttsMs" integer, "totalMs" integer);
  end if;
  if to_regtype('turn_breakdown') is null then
    create type turn_breakdown as ("eouMs" integer, "sttMs" integer, "llmTtftMs" integer, "ttsTtfbMs" integer, "e2eMs" integer, "unattributedMs" integer);
  end if;
end $$;
