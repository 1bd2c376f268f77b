import type { ProjectedEvent } from '../projected-event';
import { earliest, latest, minTime, pack, stamped, unpack, type Packed, type Parts } from '../registers';

/** What the reports of one agent turn say, part by part. */
interface TurnValues {
  agentId: string;
  asrMs: number;
  llmMs: number;
  ttsMs: number;
  totalMs: number;
  /** What the agent said, sealed when ingest sealed it: the query service opens it for the tenant reading the call. */
  text: string;
  model: string;
  tokensIn: number;
  tokensOut: number;
  eouDelayMs: number;
  e2eMs: number;
  unattributedMs: number;
  interrupted: boolean;
  /** The first model call, synthesis and transcript of the turn are what the customer waited for: these keep the earliest report. */
  llmTtftMs: number;
  ttsTtfbMs: number;
  transcriptionDelayMs: number;
}

/**
 * What the reports of one agent turn said, part by part. A framework that
 * measures the stages in separate spans (the turn, its model call, its
 * synthesis) reports each on its own, in any order and maybe twice: every
 * part keeps a register and they merge one by one. Stored packed under one
 * stamp when one report said it all, as it does from most senders.
 */
export type TurnFacts = (Parts<TurnValues> | Packed<TurnValues>) & { occurredAt: string | null };

export function turnFactsOf({ event, stamp }: ProjectedEvent): TurnFacts | null {
  if (event.type !== 'agent.response.generated') return null;
  const d = event.data;
  return Object.assign(
    pack<TurnValues>({
      agentId: stamped(stamp, event.call.agent_id),
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
    }),
    { occurredAt: event.occurred_at },
  );
}

/** Commutative, associative and idempotent, part by part. */
export function mergeTurnFacts(a: TurnFacts, b: TurnFacts): TurnFacts {
  const x = unpack<TurnValues>(a);
  const y = unpack<TurnValues>(b);
  return Object.assign(
    pack<TurnValues>({
      agentId: earliest(x.agentId, y.agentId),
      asrMs: latest(x.asrMs, y.asrMs),
      llmMs: latest(x.llmMs, y.llmMs),
      ttsMs: latest(x.ttsMs, y.ttsMs),
      totalMs: latest(x.totalMs, y.totalMs),
      text: latest(x.text, y.text),
      model: latest(x.model, y.model),
      tokensIn: latest(x.tokensIn, y.tokensIn),
      tokensOut: latest(x.tokensOut, y.tokensOut),
      eouDelayMs: latest(x.eouDelayMs, y.eouDelayMs),
      e2eMs: latest(x.e2eMs, y.e2eMs),
      unattributedMs: latest(x.unattributedMs, y.unattributedMs),
      interrupted: latest(x.interrupted, y.interrupted),
      llmTtftMs: earliest(x.llmTtftMs, y.llmTtftMs),
      ttsTtfbMs: earliest(x.ttsTtfbMs, y.ttsTtfbMs),
      transcriptionDelayMs: earliest(x.transcriptionDelayMs, y.transcriptionDelayMs),
    }),
    { occurredAt: minTime(a.occurredAt, b.occurredAt) },
  );
}

/**
 * The part of the end-to-end latency no named stage accounts for, so that
 * eou + llm ttft + tts ttfb + unattributed = e2e (a stage not reported counts
 * as 0): the sender's figure, else derived. Stages timed on different clocks
 * can add up to more than the total; then nothing is unattributed.
 */
export function unattributedMs(f: Packed<TurnValues>['value']): number | null {
  if (f.unattributedMs !== null) return f.unattributedMs;
  if (f.e2eMs === null) return null;
  return Math.max(0, f.e2eMs - (f.eouDelayMs ?? 0) - (f.llmTtftMs ?? 0) - (f.ttsTtfbMs ?? 0));
}
