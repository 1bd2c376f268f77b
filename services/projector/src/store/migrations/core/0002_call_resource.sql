-- What renders a call as GET /calls shows it (CallResourceSchema), for the
-- calls read model's `resource` column. Kept here, outside the copy of the
-- read models a replay builds: a rebuilt table keeps its trigger, and the
-- trigger these functions.

-- A time as the API writes times: JavaScript's toISOString (UTC, milliseconds, Z).
create function earshot_api_time(t timestamptz) returns text language sql stable parallel safe
  return to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');

-- A latency breakdown under the API's field names, so to_json writes a call's or a turn's latency as the API shows it.
create type earshot_latency_breakdown as ("asrMs" integer, "llmMs" integer, "ttsMs" integer, "totalMs" integer);

-- A calls row as JSON in the API's shape. Polymorphic, so it takes the live
-- table's rows and a replay copy's alike (each its own row type).
create function earshot_call_resource(c anyelement) returns text language sql stable parallel safe as $$
  select to_json(r)::text from (select c.id as id, c.agent_id as "agentId", c.status as status,
    earshot_api_time(c.started_at) as "startedAt", earshot_api_time(c.answered_at) as "answeredAt", earshot_api_time(c.ended_at) as "endedAt",
    c.duration_ms as "durationMs", c.quality_score as "qualityScore",
    row(c.latency_asr_ms, c.latency_llm_ms, c.latency_tts_ms, c.latency_total_ms)::earshot_latency_breakdown as latency,
    c.provider as provider, c.provider_call_id as "providerCallId", c.end_reason as "endReason", c.turn_count as "turnCount",
    c.interruptions as interruptions, c.tool_call_count as "toolCallCount", c.provider_error_count as "providerErrorCount",
    c.cost_usd as "costUsd", c.success as success, c.direction as direction, c.agent_version as "agentVersion",
    c.customer_id as "customerId", c.recording_url as "recordingUrl", c.summary as summary) r
$$;

create function earshot_render_call_resource() returns trigger language plpgsql as $$
begin
  new.resource := earshot_call_resource(new);
  return new;
end
$$;
