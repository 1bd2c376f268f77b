-- A latency breakdown under the API's field names, so that to_json writes a
-- call's or a turn's latency as the API shows it: a cast to this type costs a
-- fraction of a json_build_object a row.
create type latency_breakdown as ("asrMs" integer, "llmMs" integer, "ttsMs" integer, "totalMs" integer);
