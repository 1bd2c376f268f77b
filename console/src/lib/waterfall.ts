/**
 * A turn's latency as a waterfall of stages, each starting where the one before ended:
 * end-of-utterance, speech-to-text, LLM to first token, text-to-speech to first byte,
 * and whatever of the turn's total the stages do not account for.
 */

export const STAGES = [
  { id: 'eou', label: 'End of utterance', field: 'eouMs' },
  { id: 'stt', label: 'Speech to text', field: 'asrMs' },
  { id: 'llm', label: 'LLM to first token', field: 'llmMs' },
  { id: 'tts', label: 'TTS to first byte', field: 'ttsMs' },
] as const;
type StageId = (typeof STAGES)[number]['id'] | 'unattributed';

interface StageSegment {
  id: StageId;
  label: string;
  /** null when the turn does not report this stage. */
  ms: number | null;
  /** Where the segment starts and how wide it is, in percent of the scale. */
  offset: number;
  width: number;
}

export interface TurnWaterfall {
  totalMs: number;
  segments: StageSegment[];
  /** Stages the turn does not report, by label. */
  missing: string[];
}

/**
 * Reads a stage by its field name: the API reports speech-to-text, LLM and TTS today and adds
 * end-of-utterance later, so a field that is absent or not a number is "not reported", not zero.
 */
function stageMs(latency: Latency, field: string): number | null {
  const value = latency[field];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** The largest total among turns, rounded up to a tidy figure: one scale for every turn of a call, so bars compare. */
export function waterfallScale(totals: readonly (number | null)[]): number {
  const largest = Math.max(0, ...totals.map((total) => total ?? 0));
  if (largest === 0) return 1000;
  const step = largest <= 2000 ? 250 : largest <= 5000 ? 500 : 1000;
  return Math.ceil(largest / step) * step;
}

/** A turn's latency as the API gives it: the total (null for a turn reported in parts without one), and its stages. */
export type Latency = { readonly totalMs: number | null } & Readonly<Record<string, unknown>>;

export function turnWaterfall(latency: Latency, scaleMs: number): TurnWaterfall {
  const segments: StageSegment[] = [];
  const missing: string[] = [];
  let at = 0;
  const percent = (ms: number) => (scaleMs > 0 ? (ms / scaleMs) * 100 : 0);
  for (const stage of STAGES) {
    const ms = stageMs(latency, stage.field);
    if (ms === null) missing.push(stage.label);
    segments.push({ id: stage.id, label: stage.label, ms, offset: percent(at), width: ms === null ? 0 : percent(ms) });
    at += ms ?? 0;
  }
  const totalMs = Math.max(latency.totalMs ?? 0, at);
  const rest = totalMs - at;
  segments.push({ id: 'unattributed', label: 'Unattributed', ms: rest, offset: percent(at), width: percent(rest) });
  return { totalMs, segments, missing };
}

/** Ticks for the waterfall's axis: 4 to 6 evenly spaced values from 0 to the scale. */
export function waterfallTicks(scaleMs: number): number[] {
  const steps = [100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000];
  const step = steps.find((s) => scaleMs / s <= 6) ?? Math.ceil(scaleMs / 5);
  const ticks: number[] = [];
  for (let t = 0; t <= scaleMs + 1e-9; t += step) ticks.push(t);
  return ticks;
}
