import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callIdOf, type ErasableCall, type ErasedCalls } from '@earshot/events';
import { callScript, logRecords } from '@earshot/testing';
import { decodeBatch } from './erased-calls';

const tenant = randomUUID();
const events = [...callScript({ tenant, providerCallId: 'erased', turns: 2 }), ...callScript({ tenant, providerCallId: 'kept', turns: 2 })];
const records = logRecords(events, 0n);
const provider = events[0]?.provider ?? '';
const ofCall = (providerCallId: string) => records.filter((r) => r.key === `${tenant}:${providerCallId}`);
const later = Math.max(...records.map((r) => r.timestamp)) + 1;

/** Erasures as DataKeys.erasedCalls answers them: `erased` at `at`, when given, each question kept. */
function erasures(at?: number): { asked: ErasableCall[][]; erasedCalls: ErasedCalls } {
  const asked: ErasableCall[][] = [];
  const erased = callIdOf(tenant, provider, 'erased');
  return {
    asked,
    erasedCalls: async (calls) => {
      asked.push([...calls]);
      return (_tenantId, callId) => (at !== undefined && callId === erased ? at : undefined);
    },
  };
}

describe('decodeBatch', () => {
  it('folds every event of a batch in the clear when none of its calls was erased, asking once for the lot', async () => {
    const { asked, erasedCalls } = erasures();
    const { folded } = await decodeBatch(records, undefined, erasedCalls);
    expect(folded.erased).toBe(0);
    expect(folded.tenants.get(tenant)?.records.size).toBe(records.length);
    expect(asked.map((calls) => calls.length)).toEqual([2]);
  });

  it('folds the batch without the events stored before their call was erased, and decodes them as erased again', async () => {
    const { erasedCalls } = erasures(later);
    const erased = ofCall('erased');
    expect(erased.length).toBeGreaterThan(0);
    const { decode, folded } = await decodeBatch(records, undefined, erasedCalls);
    expect(folded.erased).toBe(erased.length);
    expect(folded.tenants.get(tenant)?.records.size).toBe(ofCall('kept').length);
    expect(erased.map((record) => 'erased' in decode(record))).toEqual(erased.map(() => true));
    expect(ofCall('kept').some((record) => 'erased' in decode(record))).toBe(false);
  });

  it('keeps the events stored after their call was erased: they make a new call', async () => {
    const { erasedCalls } = erasures(Math.min(...records.map((r) => r.timestamp)));
    const { folded } = await decodeBatch(records, undefined, erasedCalls);
    expect(folded.erased).toBe(0);
  });
});
