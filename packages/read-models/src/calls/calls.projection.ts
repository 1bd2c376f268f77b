import { PROVIDER_EVENT_TYPES, type CallResource } from '@earshot/contracts';
import type { DocumentProjection, Row } from '../projection';
import { median, minTime } from '../registers';
import { usage, usageMeters } from '../usage-meters/usage-meters.projection';
import { callFactsOf, mergeCallFacts, turnsOf, type CallFacts } from './call-facts';
import { abandonedBySilence, callStatus, endReason } from './call-status';

/** When the call began: call.started, else the first ring or answer, else its first event of any kind. */
function startedAt(f: CallFacts): string | null {
  return f.startedAt ?? minTime(f.ringingAt, f.answeredAt) ?? f.firstEventAt;
}

/** When it ended: the hang-up, else the failure, else the end-of-call report, else when an abandoned call fell silent; null while in progress. */
function endedAt(f: CallFacts): string | null {
  return f.endedAt ?? f.failedAt ?? f.completedAt ?? (abandonedBySilence(f) ? f.abandonedSilentSince : null);
}

/** The provider's reported duration, else the time from start to end. */
function durationMs(f: CallFacts): number | null {
  const reported = f.report?.value.durationMs ?? f.end?.value.durationMs ?? null;
  if (reported !== null) return reported;
  const start = startedAt(f);
  const end = endedAt(f);
  return start !== null && end !== null ? Math.max(0, Date.parse(end) - Date.parse(start)) : null;
}

/** The provider's score (0 to 1), else the customer's rating scaled to 0 to 1. */
function qualityScore(f: CallFacts): number | null {
  const reported = f.report?.value.qualityScore ?? null;
  if (reported !== null) return reported;
  const rating = f.feedback?.value.rating ?? null;
  const scale = f.feedback?.value.ratingScale ?? 5;
  return rating !== null && scale > 1 ? Math.min(1, Math.max(0, (rating - 1) / (scale - 1))) : null;
}

/** The columns of a call's row that readers see, from its facts. */
function callColumns(f: CallFacts) {
  const turns = turnsOf(f);
  const part = (of: (t: (typeof turns)[number]) => number | null) => turns.flatMap((t) => of(t) ?? []);
  const started = startedAt(f);
  // Every call's facts come from at least one event, whose time is the fallback.
  if (started === null) throw new Error(`call ${f.callId} has no event time`);
  return {
    agent_id: f.agentId?.value ?? '',
    provider: f.provider,
    provider_call_id: f.providerCallId,
    status: callStatus(f),
    started_at: started,
    answered_at: f.answeredAt,
    ended_at: endedAt(f),
    last_event_at: f.lastEventAt,
    duration_ms: durationMs(f),
    quality_score: qualityScore(f),
    // Per-call latency: the median of each part over the call's turns, each part on its own.
    latency_asr_ms: median(part((t) => t.asrMs)),
    latency_llm_ms: median(part((t) => t.llmMs)),
    latency_tts_ms: median(part((t) => t.ttsMs)),
    latency_total_ms: median(part((t) => t.totalMs)),
    turn_count: turns.length,
    interruptions: turns.filter((t) => t.interrupted === true).length,
    tool_call_count: f.toolCallIds.length,
    provider_error_count: f.providerErrors.length,
    end_reason: endReason(f),
    disconnection_reason: f.end?.value.disconnectionReason ?? null,
    failure_code: f.failure?.value.errorCode ?? null,
    failure_message: f.failure?.value.message ?? null,
    transfer_target: f.transfer?.value.to ?? null,
    handoff_target: f.handoff?.value.target ?? null,
    recording_id: f.recording?.value.recordingId ?? null,
    recording_url: f.recording?.value.url ?? f.report?.value.recordingUrl ?? null,
    cost_usd: f.report?.value.costUsd ?? f.end?.value.costUsd ?? null,
    success: f.report?.value.success ?? null,
    summary: f.report?.value.summary ?? null,
    sentiment: f.report?.value.sentiment ?? null,
    direction: f.direction?.value ?? null,
    from_number: f.fromNumber?.value ?? null,
    to_number: f.toNumber?.value ?? null,
    agent_version: f.agentVersion?.value ?? null,
    workflow_id: f.workflowId?.value ?? null,
    customer_id: f.customerId?.value ?? null,
    metadata: f.metadata?.value ?? null,
  };
}

/**
 * The call as the API shows it. Its times are the events' own, which the
 * envelope has already written in toISOString's form, as reads write a
 * stored time.
 */
function callResource(id: string, c: ReturnType<typeof callColumns>): CallResource {
  return {
    id,
    agentId: c.agent_id,
    status: c.status,
    startedAt: c.started_at,
    answeredAt: c.answered_at,
    endedAt: c.ended_at,
    durationMs: c.duration_ms,
    qualityScore: c.quality_score,
    latency: { asrMs: c.latency_asr_ms, llmMs: c.latency_llm_ms, ttsMs: c.latency_tts_ms, totalMs: c.latency_total_ms },
    provider: c.provider,
    providerCallId: c.provider_call_id,
    endReason: c.end_reason,
    turnCount: c.turn_count,
    interruptions: c.interruptions,
    toolCallCount: c.tool_call_count,
    providerErrorCount: c.provider_error_count,
    costUsd: c.cost_usd,
    success: c.success,
    direction: c.direction,
    agentVersion: c.agent_version,
    customerId: c.customer_id,
    recordingUrl: c.recording_url,
    summary: c.summary,
  };
}

/**
 * A call's row, with `resource`: the call rendered as GET /calls sends it,
 * once per write here rather than per read in the query service's one
 * thread (or per write in a trigger, which cost the projector a fifth of
 * its throughput).
 */
export function callRow(f: CallFacts): Row {
  const columns = callColumns(f);
  // Added to the columns, not spread into a new literal: gaining a key after a spread is V8's slow path (~0.9 µs).
  return Object.assign(columns, { resource: JSON.stringify(callResource(f.callId, columns)) });
}

/** One row per call, keyed by the id derived from tenant, provider and provider call id. */
export const calls: DocumentProjection<CallFacts> = {
  kind: 'document',
  name: 'calls',
  version: 1,
  table: 'calls',
  key: ['id'],
  handles: [...PROVIDER_EVENT_TYPES, 'call.abandoned'],
  facts(event) {
    const facts = callFactsOf(event);
    return facts ? { key: { id: facts.callId }, facts } : null;
  },
  merge: mergeCallFacts,
  row: callRow,
  contribution: {
    to: usageMeters,
    // A call counts on the day it started; its minutes follow its duration as later events refine it.
    rows(f) {
      const start = startedAt(f);
      return start === null ? [] : [usage(start, { calls: 1, call_ms: durationMs(f) ?? 0 })];
    },
  },
};
