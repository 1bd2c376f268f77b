import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@earshot/contracts';
import { callIdOf } from './call-id';
import { erasableCall, erasedInTheClear, type ErasableCall, type ErasedCalls } from './erased-calls';
import { SAMPLE_TENANT, sampleEvent } from './samples';

interface Stored {
  headers: { [name: string]: string };
  timestamp: number;
  event: StoredEvent;
}

const ERASED_AT = 1_000;
const of = (providerCallId: string | null, timestamp: number, sealedWith?: string): Stored => ({
  headers: sealedWith === undefined ? {} : { 'sealed-with': sealedWith },
  timestamp,
  event: providerCallId === null ? sampleEvent('deployment.recorded') : sampleEvent('transcript.final', { call: { provider_call_id: providerCallId } }),
});

/** Erasures as DataKeys.erasedCalls answers them: call `erased` at ERASED_AT, each question kept. */
function erasures(): { asked: ErasableCall[][]; erasedCalls: ErasedCalls } {
  const asked: ErasableCall[][] = [];
  const erased = callIdOf(SAMPLE_TENANT, 'vapi', 'erased');
  return {
    asked,
    erasedCalls: async (calls) => {
      asked.push([...calls]);
      return (tenantId, callId) => (tenantId === SAMPLE_TENANT && callId === erased ? ERASED_AT : undefined);
    },
  };
}

const callOf = (record: Stored) => erasableCall(record, record.event);

describe('erasedInTheClear', () => {
  it('passes over an event in the clear the log stored before its call was erased, not one stored after, nor another call’s', async () => {
    const { asked, erasedCalls } = erasures();
    const before = of('erased', ERASED_AT - 1);
    const after = of('erased', ERASED_AT);
    const other = of('kept', ERASED_AT - 1);
    const aboutNoCall = of(null, ERASED_AT - 1);
    const erased = await erasedInTheClear([before, after, other, aboutNoCall], callOf, erasedCalls);
    expect([before, after, other, aboutNoCall].map(erased)).toEqual([true, false, false, false]);
    expect(asked).toHaveLength(1);
    // Each call once, though two events name the erased one.
    expect(asked[0]?.map((c) => c.callId)).toEqual([callIdOf(SAMPLE_TENANT, 'vapi', 'erased'), callIdOf(SAMPLE_TENANT, 'vapi', 'kept')]);
  });

  it('asks nothing of sealed events or events about no call, which their key’s destruction reaches or no call’s erasure does', async () => {
    const { asked, erasedCalls } = erasures();
    const sealed = of('erased', ERASED_AT - 1, 'dk_erased');
    const erased = await erasedInTheClear([sealed, of(null, 0)], callOf, erasedCalls);
    expect(erased(sealed)).toBe(false);
    expect(asked).toEqual([]);
  });

  it('erases nothing without erasures to ask', async () => {
    const before = of('erased', ERASED_AT - 1);
    expect((await erasedInTheClear([before], callOf, undefined))(before)).toBe(false);
  });
});
