import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleEvent } from '@earshot/events/samples';
import { projectEvent } from '../projected-event';
import { unpack } from '../registers';
import { mergeTurnFacts, turnFactsOf, type TurnFacts } from './turn-facts';
import { turns } from './turns.projection';

const TENANT = '0b6f3a9e-1c2d-4e5f-8a7b-9c0d1e2f3a4b';
const NONE = { asr_ms: null, llm_ms: null, tts_ms: null, total_ms: null };

/** A part of turn_1 at `ms` after the call's start, carrying only `data`. */
function part(key: string, ms: number, data: Record<string, unknown>) {
  return projectEvent(
    sampleEvent('agent.response.generated', {
      tenant: TENANT,
      version: '2026-11-24',
      idempotency_key: key,
      occurred_at: new Date(Date.parse('2026-01-08T09:30:00.000Z') + ms).toISOString(),
      data: {
        turn_id: 'turn_1',
        text: null,
        model: null,
        interrupted: null,
        llm_ttft_ms: null,
        tts_ttfb_ms: null,
        eou_delay_ms: null,
        e2e_ms: null,
        unattributed_ms: null,
        transcription_delay_ms: null,
        latency: NONE,
        ...data,
      },
    }),
  );
}

/** A LiveKit turn as its spans report it: the agent turn, its model call, and a synthesis per sentence. */
const PARTS = [
  part('turn', 0, {
    latency: { ...NONE, total_ms: 1240, asr_ms: 180 },
    e2e_ms: 1240,
    eou_delay_ms: 420,
    transcription_delay_ms: 180,
    interrupted: true,
    text: 'Your bill is 31.50.',
  }),
  part('llm', 430, { latency: { ...NONE, llm_ms: 390 }, llm_ttft_ms: 390, model: 'gpt-4o-mini' }),
  part('tts-1', 830, { latency: { ...NONE, tts_ms: 210 }, tts_ttfb_ms: 210 }),
  part('tts-2', 1900, { tts_ttfb_ms: 260 }),
];

const fold = (events: typeof PARTS) => events.map((e) => turnFactsOf(e) as TurnFacts).reduce(mergeTurnFacts);

describe('a turn reported in parts', () => {
  it('has the breakdown of all its parts, the first synthesis and what no stage explains', () => {
    expect(turns.row(fold(PARTS))).toMatchObject({
      total_ms: 1240,
      e2e_ms: 1240,
      eou_delay_ms: 420,
      transcription_delay_ms: 180,
      llm_ttft_ms: 390,
      tts_ttfb_ms: 210,
      unattributed_ms: 1240 - 420 - 390 - 210,
      interrupted: true,
      model: 'gpt-4o-mini',
      text: 'Your bill is 31.50.',
    });
  });

  it('gives the same row for any order of its parts, any of them repeated', () => {
    const expected = turns.row(fold(PARTS));
    fc.assert(
      fc.property(
        fc.shuffledSubarray(PARTS, { minLength: PARTS.length, maxLength: PARTS.length }),
        fc.array(fc.constantFrom(...PARTS), { maxLength: 6 }),
        (order, repeats) => {
          expect(turns.row(fold([...order, ...repeats]))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stores what one report said under one stamp, and merges facts stored a stamp a part as before', () => {
    const [first, ...rest] = PARTS.map((e) => turnFactsOf(e) as TurnFacts);
    if (!first) throw new Error('no parts');
    expect(JSON.stringify(first).match(/"at"/g)).toHaveLength(1);
    const storedAsBefore = JSON.parse(JSON.stringify({ ...unpack(first), occurredAt: first.occurredAt })) as TurnFacts;
    expect(turns.row([storedAsBefore, ...rest].reduce(mergeTurnFacts))).toEqual(turns.row(fold(PARTS)));
  });

  it('keeps what the sender said is unattributed, and attributes nothing until the total is known', () => {
    expect(turns.row(fold([...PARTS, part('report', 50, { unattributed_ms: 99 })])).unattributed_ms).toBe(99);
    expect(turns.row(fold(PARTS.slice(1))).unattributed_ms).toBeNull();
  });
});
