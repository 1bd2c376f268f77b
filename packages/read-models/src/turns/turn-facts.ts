import type { ProjectedEvent } from '../projected-event';
import { earliest, latest, minTime, stamped, type Register } from '../registers';

type Part<T> = Register<T> | null;

/**
 * What the reports of one agent turn said, part by part. A framework that
 * measures the stages in separate spans (the turn, its model call, its
 * synthesis) reports each on its own, in any order and maybe twice: every
 * part keeps a register and they merge one by one.
 */
export interface TurnFacts {
  agentId: Part<string>;
  occurredAt: string | null;
  asrMs: Part<number>;
  llmMs: Part<number>;
  ttsMs: Part<number>;
  totalMs: Part<number>;
  text: Part<string>;
  model: Part<string>;
  tokensIn: Part<number>;
  tokensOut: Part<number>;
  eouDelayMs: Part<number>;
  e2eMs: Part<number>;
  unattributedMs: Part<number>;
  interrupted: Part<boolean>;
  /** The first model call, synthesis and transcript of the turn are what the customer waited for: these keep the earliest report. */
  llmTtftMs: Part<number>;
  ttsTtfbMs: Part<number>;
  transcriptionDelayMs: Part<number>;
}

export function turnFactsOf({ event, stamp }: ProjectedEvent): TurnFacts | null {
  if (event.type !== 'agent.response.generated') return null;
  const d = event.data;
  return {
    agentId: stamped(stamp, event.call.agent_id),
    occurredAt: event.occurred_at,
    asrMs: stamped(stamp, d.latency.asr_ms),
    llmMs: stamped(stamp, d.latency.llm_ms),
    ttsMs: stamped(stamp, d.latency.tts_ms),
    totalMs: stamped(stamp, d.latency.total_ms),
    text: stamped(stamp, d.text),
    model: stamped(stamp, d.model),
    tokensIn: stamped(stamp, d.tokens_in),
    tokensOut: stamped(stamp, d.tokens_out),
    eouDelayMs: stamped(stamp, d.eou_delay_ms),
    e2eMs: stamped(stamp, d.e2e_ms),
    unattributedMs: stamped(stamp, d.unattributed_ms),
    interrupted: stamped(stamp, d.interrupted),
    llmTtftMs: stamped(stamp, d.llm_ttft_ms),
    ttsTtfbMs: stamped(stamp, d.tts_ttfb_ms),
    transcriptionDelayMs: stamped(stamp, d.transcription_delay_ms),
  };
}

/** Commutative, associative and idempotent, part by part. */
export function mergeTurnFacts(a: TurnFacts, b: TurnFacts): TurnFacts {
  return {
    agentId: earliest(a.agentId, b.agentId),
    occurredAt: minTime(a.occurredAt, b.occurredAt),
    asrMs: latest(a.asrMs, b.asrMs),
    llmMs: latest(a.llmMs, b.llmMs),
    ttsMs: latest(a.ttsMs, b.ttsMs),
    totalMs: latest(a.totalMs, b.totalMs),
    text: latest(a.text, b.text),
    model: latest(a.model, b.model),
    tokensIn: latest(a.tokensIn, b.tokensIn),
    tokensOut: latest(a.tokensOut, b.tokensOut),
    eouDelayMs: latest(a.eouDelayMs, b.eouDelayMs),
    e2eMs: latest(a.e2eMs, b.e2eMs),
    unattributedMs: latest(a.unattributedMs, b.unattributedMs),
    interrupted: latest(a.interrupted, b.interrupted),
    llmTtftMs: earliest(a.llmTtftMs, b.llmTtftMs),
    ttsTtfbMs: earliest(a.ttsTtfbMs, b.ttsTtfbMs),
    transcriptionDelayMs: earliest(a.transcriptionDelayMs, b.transcriptionDelayMs),
  };
}

/**
 * The part of the end-to-end latency no named stage accounts for, so that
 * eou + llm ttft + tts ttfb + unattributed = e2e (a stage not reported counts
 * as 0): the sender's figure, else derived. Stages timed on different clocks
 * can add up to more than the total; then nothing is unattributed.
 */
export function unattributedMs(f: TurnFacts): number | null {
  if (f.unattributedMs) return f.unattributedMs.value;
  const e2e = f.e2eMs?.value;
  if (e2e === undefined) return null;
  return Math.max(0, e2e - (f.eouDelayMs?.value ?? 0) - (f.llmTtftMs?.value ?? 0) - (f.ttsTtfbMs?.value ?? 0));
}
