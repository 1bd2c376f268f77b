import type { ProjectedEvent } from '../projected-event';
import { earliest, latest, maxTime, mergeMaps, minTime, pack, stamped, union, unpack, valuesOf, type Packed, type Parts, type Register } from '../registers';

/** What a turn reports of its latency. */
interface TurnLatencyValues {
  asrMs: number;
  llmMs: number;
  ttsMs: number;
  totalMs: number;
  interrupted: boolean;
}

/**
 * A turn as stored: each part the latest report that carried it (a framework that measures the stages in separate
 * spans reports each on its own), packed under one stamp when one report carried them all. Facts stored before turns
 * came in parts hold one whole report: the packed form.
 */
type StoredTurn = Parts<TurnLatencyValues> | Packed<TurnLatencyValues>;

function mergeTurnLatency(a: StoredTurn, b: StoredTurn): StoredTurn {
  const x = unpack(a);
  const y = unpack(b);
  return pack({
    asrMs: latest(x.asrMs, y.asrMs),
    llmMs: latest(x.llmMs, y.llmMs),
    ttsMs: latest(x.ttsMs, y.ttsMs),
    totalMs: latest(x.totalMs, y.totalMs),
    interrupted: latest(x.interrupted, y.interrupted),
  });
}

/** What the call's turns reported, turn by turn (a part no report carried null). */
export function turnsOf(facts: CallFacts): Packed<TurnLatencyValues>['value'][] {
  return Object.values(facts.turns).map(valuesOf);
}

/** What the events have told about one call. Every field merges by a rule that ignores order and repeats. */
export interface CallFacts {
  callId: string;
  provider: string;
  providerCallId: string;
  /** Earliest and latest occurred_at of any event about the call. */
  firstEventAt: string | null;
  lastEventAt: string | null;
  /** Earliest occurrence of each lifecycle event. */
  ringingAt: string | null;
  answeredAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  completedAt: string | null;
  failedAt: string | null;
  transferredAt: string | null;
  /**
   * The latest `silent_since` of Earshot's call.abandoned: the call had been
   * silent since then. An event that happened after it means the call was
   * not abandoned after all.
   */
  abandonedSilentSince: string | null;
  /** A final transcript or an agent response was seen: someone was served. */
  conversed: boolean;
  /** A handoff to a human completed. */
  handedToHuman: boolean;
  /** The call as first described: per attribute, the earliest event that carried it. */
  agentId: Register<string> | null;
  direction: Register<string> | null;
  fromNumber: Register<string> | null;
  toNumber: Register<string> | null;
  agentVersion: Register<string> | null;
  workflowId: Register<string> | null;
  customerId: Register<string> | null;
  metadata: Register<Record<string, string>> | null;
  /** The latest report of each kind. */
  end: Register<{ endedReason: string | null; disconnectionReason: string | null; durationMs: number | null; costUsd: number | null }> | null;
  report: Register<{
    durationMs: number | null;
    endedReason: string | null;
    success: boolean | null;
    qualityScore: number | null;
    summary: string | null;
    sentiment: string | null;
    costUsd: number | null;
    recordingUrl: string | null;
  }> | null;
  failure: Register<{ errorCode: string | null; message: string | null; stage: string | null; sipStatusCode: number | null }> | null;
  transfer: Register<{ to: string; reason: string | null; transferType: string | null }> | null;
  handoff: Register<{ target: string; targetKind: string | null }> | null;
  recording: Register<{ recordingId: string; url: string; durationMs: number | null }> | null;
  feedback: Register<{ rating: number | null; ratingScale: number | null }> | null;
  /** Per turn id, the latest report of each latency part. */
  turns: Record<string, StoredTurn>;
  toolCallIds: readonly string[];
  /** Stamps of provider errors: a set, so a repeated event counts once. */
  providerErrors: readonly string[];
}

function emptyCallFacts(callId: string, provider: string, providerCallId: string): CallFacts {
  return {
    callId,
    provider,
    providerCallId,
    firstEventAt: null,
    lastEventAt: null,
    ringingAt: null,
    answeredAt: null,
    startedAt: null,
    endedAt: null,
    completedAt: null,
    failedAt: null,
    transferredAt: null,
    abandonedSilentSince: null,
    conversed: false,
    handedToHuman: false,
    agentId: null,
    direction: null,
    fromNumber: null,
    toNumber: null,
    agentVersion: null,
    workflowId: null,
    customerId: null,
    metadata: null,
    end: null,
    report: null,
    failure: null,
    transfer: null,
    handoff: null,
    recording: null,
    feedback: null,
    turns: {},
    toolCallIds: [],
    providerErrors: [],
  };
}

/** What one event says about its call; null for events not about a call. */
export function callFactsOf(projected: ProjectedEvent): CallFacts | null {
  const { event, callId, stamp } = projected;
  if (!event.call || !callId) return null;
  const at = event.occurred_at;
  const call = event.call;
  // Built once and filled in below: a fresh object no one else holds, so filling it in keeps the function pure.
  const facts = emptyCallFacts(callId, event.provider, call.provider_call_id);
  facts.firstEventAt = at;
  facts.lastEventAt = at;
  facts.agentId = stamped(stamp, call.agent_id);
  facts.direction = stamped(stamp, call.direction);
  facts.fromNumber = stamped(stamp, call.from_number);
  facts.toNumber = stamped(stamp, call.to_number);
  facts.agentVersion = stamped(stamp, call.agent_version);
  facts.workflowId = stamped(stamp, call.workflow_id);
  facts.customerId = stamped(stamp, call.customer_id);
  facts.metadata = stamped(stamp, call.metadata);
  switch (event.type) {
    case 'call.ringing':
      return Object.assign(facts, { ringingAt: at });
    case 'call.answered':
      return Object.assign(facts, { answeredAt: at });
    case 'call.started':
      return Object.assign(facts, { startedAt: at });
    case 'call.ended': {
      const d = event.data;
      return Object.assign(facts, {
        endedAt: at,
        end: stamped(stamp, { endedReason: d.ended_reason, disconnectionReason: d.disconnection_reason, durationMs: d.duration_ms, costUsd: d.cost_usd }),
      });
    }
    case 'call.completed': {
      const d = event.data;
      return Object.assign(facts, {
        completedAt: at,
        report: stamped(stamp, {
          durationMs: d.duration_ms,
          endedReason: d.ended_reason,
          success: d.success,
          qualityScore: d.quality_score,
          summary: d.summary,
          sentiment: d.sentiment,
          costUsd: d.cost_usd,
          recordingUrl: d.recording_url,
        }),
      });
    }
    case 'call.failed': {
      const d = event.data;
      return Object.assign(facts, {
        failedAt: at,
        failure: stamped(stamp, { errorCode: d.error_code, message: d.message, stage: d.stage, sipStatusCode: d.sip_status_code }),
      });
    }
    case 'call.transferred': {
      const d = event.data;
      return Object.assign(facts, { transferredAt: at, transfer: stamped(stamp, { to: d.to, reason: d.reason, transferType: d.transfer_type }) });
    }
    case 'handoff.completed': {
      const d = event.data;
      return Object.assign(facts, { handedToHuman: d.target_kind === 'human', handoff: stamped(stamp, { target: d.target, targetKind: d.target_kind }) });
    }
    case 'transcript.final':
      return Object.assign(facts, { conversed: true });
    case 'call.abandoned': {
      // Not a sign of life: the call was last heard of at silent_since, which is all this event says about its times.
      const since = event.data.silent_since;
      return Object.assign(facts, { firstEventAt: since, lastEventAt: since, abandonedSilentSince: since });
    }
    case 'agent.response.generated': {
      const d = event.data;
      const latency = pack({
        asrMs: stamped(stamp, d.latency.asr_ms),
        llmMs: stamped(stamp, d.latency.llm_ms),
        ttsMs: stamped(stamp, d.latency.tts_ms),
        totalMs: stamped(stamp, d.latency.total_ms),
        interrupted: stamped(stamp, d.interrupted),
      });
      return Object.assign(facts, { conversed: true, turns: { [d.turn_id]: latency } });
    }
    case 'tool.call.started':
    case 'tool.call.completed':
    case 'tool.call.failed':
      return Object.assign(facts, { toolCallIds: [event.data.tool_call_id] });
    case 'provider.error.received':
      return Object.assign(facts, { providerErrors: [stamp] });
    case 'recording.available': {
      const d = event.data;
      return Object.assign(facts, { recording: stamped(stamp, { recordingId: d.recording_id, url: d.url, durationMs: d.duration_ms }) });
    }
    case 'customer.feedback.submitted': {
      const d = event.data;
      return Object.assign(facts, { feedback: stamped(stamp, { rating: d.rating, ratingScale: d.rating_scale }) });
    }
    case 'audio.stream.started':
    case 'audio.stream.stopped':
    case 'transcript.partial':
    case 'workflow.state.changed':
    case 'handoff.initiated':
    case 'outcome.recorded':
    case 'incident.created':
    case 'incident.updated':
    case 'deployment.recorded':
    case 'alert.fired':
    case 'alert.resolved':
    case 'alert.rule.changed':
    case 'invoice.issued':
    case 'billing.plan.changed':
      return facts;
    default: {
      const unhandled: never = event;
      throw new Error(`calls: unhandled event ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Joins what two sets of events said about the same call; commutative, associative and idempotent. */
export function mergeCallFacts(a: CallFacts, b: CallFacts): CallFacts {
  return {
    callId: a.callId,
    provider: a.provider,
    providerCallId: a.providerCallId,
    firstEventAt: minTime(a.firstEventAt, b.firstEventAt),
    lastEventAt: maxTime(a.lastEventAt, b.lastEventAt),
    ringingAt: minTime(a.ringingAt, b.ringingAt),
    answeredAt: minTime(a.answeredAt, b.answeredAt),
    startedAt: minTime(a.startedAt, b.startedAt),
    endedAt: minTime(a.endedAt, b.endedAt),
    completedAt: minTime(a.completedAt, b.completedAt),
    failedAt: minTime(a.failedAt, b.failedAt),
    transferredAt: minTime(a.transferredAt, b.transferredAt),
    abandonedSilentSince: maxTime(a.abandonedSilentSince, b.abandonedSilentSince),
    conversed: a.conversed || b.conversed,
    handedToHuman: a.handedToHuman || b.handedToHuman,
    agentId: earliest(a.agentId, b.agentId),
    direction: earliest(a.direction, b.direction),
    fromNumber: earliest(a.fromNumber, b.fromNumber),
    toNumber: earliest(a.toNumber, b.toNumber),
    agentVersion: earliest(a.agentVersion, b.agentVersion),
    workflowId: earliest(a.workflowId, b.workflowId),
    customerId: earliest(a.customerId, b.customerId),
    metadata: earliest(a.metadata, b.metadata),
    end: latest(a.end, b.end),
    report: latest(a.report, b.report),
    failure: latest(a.failure, b.failure),
    transfer: latest(a.transfer, b.transfer),
    handoff: latest(a.handoff, b.handoff),
    recording: latest(a.recording, b.recording),
    feedback: latest(a.feedback, b.feedback),
    turns: mergeMaps(a.turns, b.turns, mergeTurnLatency),
    toolCallIds: union(a.toolCallIds, b.toolCallIds),
    providerErrors: union(a.providerErrors, b.providerErrors),
  };
}
