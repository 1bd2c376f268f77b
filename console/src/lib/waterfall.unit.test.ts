import { describe, expect, it } from 'vitest';
import { turnWaterfall, waterfallScale, waterfallTicks } from './waterfall';

describe('waterfall', () => {
  it('lays the stages end to end and gives the rest of the total to unattributed', () => {
    const turn = turnWaterfall({ asrMs: 200, llmMs: 500, ttsMs: 100, totalMs: 1000 }, 2000);
    expect(turn.segments.map((s) => [s.id, s.ms, s.offset, s.width])).toEqual([
      ['eou', null, 0, 0],
      ['stt', 200, 0, 10],
      ['llm', 500, 10, 25],
      ['tts', 100, 35, 5],
      ['unattributed', 200, 40, 10],
    ]);
    expect(turn.missing).toEqual(['End of utterance']);
    expect(turn.totalMs).toBe(1000);
  });

  it('uses end-of-utterance once the API reports it', () => {
    const turn = turnWaterfall({ eouMs: 300, asrMs: 200, llmMs: 500, ttsMs: 100, totalMs: 1100 }, 1100);
    expect(turn.missing).toEqual([]);
    expect(turn.segments[1]?.offset).toBeCloseTo((300 / 1100) * 100);
    expect(turn.segments[4]?.ms).toBe(0);
  });

  it('draws a turn reported in parts without a total as the sum of its stages', () => {
    const turn = turnWaterfall({ asrMs: 200, llmMs: null, ttsMs: 100, totalMs: null }, 1000);
    expect(turn.totalMs).toBe(300);
    expect(turn.missing).toEqual(['End of utterance', 'LLM to first token']);
    expect(turn.segments[4]).toMatchObject({ ms: 0, width: 0 });
    expect(waterfallScale([null, 300, null])).toBe(500);
  });

  it('never draws a negative rest when the stages exceed the reported total', () => {
    const turn = turnWaterfall({ asrMs: 600, llmMs: 600, ttsMs: 600, totalMs: 1000 }, 2000);
    expect(turn.totalMs).toBe(1800);
    expect(turn.segments[4]).toMatchObject({ ms: 0, width: 0 });
  });

  it('scales every turn of a call to a tidy maximum', () => {
    expect(waterfallScale([812, 1930])).toBe(2000);
    expect(waterfallScale([3790])).toBe(4000);
    expect(waterfallScale([12_100])).toBe(13_000);
    expect(waterfallScale([])).toBe(1000);
    expect(waterfallTicks(2000)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(waterfallTicks(4000)).toEqual([0, 1000, 2000, 3000, 4000]);
  });
});
