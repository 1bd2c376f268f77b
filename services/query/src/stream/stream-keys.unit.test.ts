import { describe, expect, it } from 'vitest';
import { callIdOf, type ErasableCall } from '@earshot/events';
import { SAMPLE_TENANT, sampleEvent } from '@earshot/events/samples';
import { logRecords } from '@earshot/testing';
import { StreamKeys } from './stream-keys';

const ERASED_AT = Date.parse('2026-01-08T10:00:00.000Z');
const before = new Date(ERASED_AT - 1).toISOString();
const after = new Date(ERASED_AT).toISOString();
const erasedCall = callIdOf(SAMPLE_TENANT, 'vapi', 'erased');

/** Streamed keys over a clock the test moves, with erasures that count their questions: call `erased` was erased at ERASED_AT. */
function streamKeys(): { keys: StreamKeys; asked: ErasableCall[][]; clock: { now: number } } {
  const asked: ErasableCall[][] = [];
  const clock = { now: 0 };
  const erasedCalls = async (calls: readonly ErasableCall[]) => {
    asked.push([...calls]);
    return (tenantId: string, callId: string) => (tenantId === SAMPLE_TENANT && callId === erasedCall ? ERASED_AT : undefined);
  };
  const keys = new StreamKeys(
    async () => () => undefined,
    erasedCalls,
    5_000,
    () => clock.now,
  );
  return { keys, asked, clock };
}

const record = (providerCallId: string, receivedAt: string, n: number) =>
  logRecords(
    [sampleEvent('transcript.final', { idempotency_key: `${providerCallId}:${n}`, received_at: receivedAt, call: { provider_call_id: providerCallId } })],
    BigInt(n),
  )[0]!;

describe('StreamKeys on events appended in the clear', () => {
  it('reads an event of a call erased after the log stored it as null, and one stored after the erasure as the event', async () => {
    const { keys } = streamKeys();
    expect(await keys.read(record('erased', before, 0), SAMPLE_TENANT)).toBeNull();
    expect(await keys.read(record('erased', after, 1), SAMPLE_TENANT)).toMatchObject({ call: { provider_call_id: 'erased' } });
    expect(await keys.read(record('kept', before, 2), SAMPLE_TENANT)).toMatchObject({ call: { provider_call_id: 'kept' } });
  });

  it('asks once per call while the answer is fresh, again once it is stale, and afresh for a resuming reader', async () => {
    const { keys, asked, clock } = streamKeys();
    for (let n = 0; n < 3; n += 1) await keys.read(record('kept', before, n), SAMPLE_TENANT);
    expect(asked).toHaveLength(1);
    clock.now = 5_000;
    await keys.read(record('kept', before, 3), SAMPLE_TENANT);
    expect(asked).toHaveLength(2);
    await keys.fresh().read(record('kept', before, 4), SAMPLE_TENANT);
    expect(asked).toHaveLength(3);
  });
});
