import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { sketchOf } from '@earshot/metrics';
import { callScript, logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { LIVE_WINDOW_MS, liveRow } from './live.queries';

const tenant = randomUUID();
const NOW = Date.parse('2026-01-08T10:00:00.000Z');
const MINUTE = 60_000;
// callScript's turns take 737 ms and, for a second turn, 874 ms (its latency formula).
const FIRST_TURN_MS = 737;
const SECOND_TURN_MS = 874;

describe('the live snapshot query (calls and metric rollups)', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;
  const live = (at: number, who = tenant) => inTenant(db, who, (tx) => liveRow(tx, new Date(at)));

  beforeAll(async () => {
    store = await readModelStore('live_queries');
    db = store.db;
    const call = (providerCallId: string, minutesAgo: number, ending: 'completed' | 'failed' | 'transferred' | 'silent', turns = 1) =>
      callScript({ tenant, providerCallId, turns, ending, startMs: NOW - minutesAgo * MINUTE });
    const events = [
      // Before the window: neither ended in it nor live, and its turns are outside the latency sketch.
      ...call('call-old', 60, 'completed'),
      // In the window: ended (completed, failed, escalated) and one still talking.
      ...call('call-done', 10, 'completed', 2),
      ...call('call-failed', 8, 'failed'),
      ...call('call-xfer', 3, 'transferred'),
      ...call('call-live', 5, 'silent'),
      // In progress but silent for 40 minutes: lost, not live.
      ...call('call-lost', 40, 'silent'),
      // Started before the window, still speaking in it: live, though not among the calls started in it.
      ...call('call-long', 30, 'silent'),
      sampleEvent('transcript.final', {
        tenant,
        idempotency_key: 'call-long:late',
        occurred_at: new Date(NOW - 2 * MINUTE).toISOString(),
        call: { provider_call_id: 'call-long' },
        data: { turn_id: 'turn_9', speaker: 'customer', text: 'Are you still there?' },
      }),
      // Another tenant's live call and turns.
      ...callScript({ tenant: randomUUID(), providerCallId: 'elsewhere', turns: 3, ending: 'silent', startMs: NOW - 4 * MINUTE }),
    ];
    expect(await store.apply(logRecords(events, 0n))).toMatchObject({ deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('counts the live calls, the calls started and ended in the window, and sums the turn latency sketches', async () => {
    const row = await live(NOW);
    expect(row).toMatchObject({ concurrent: 2, ended: 3, completed: 1 });
    const sketch = Object.fromEntries(Object.entries(row?.sketch ?? {}).map(([k, v]) => [k, Number(v)]));
    expect(sketch).toEqual(sketchOf([FIRST_TURN_MS, SECOND_TURN_MS, FIRST_TURN_MS, FIRST_TURN_MS, FIRST_TURN_MS]));
  });

  it('moves with `now`: a later window drops what fell out of it', async () => {
    // Eleven minutes on, the window starts after call-done and call-failed began; call-live's last event is 16 minutes old.
    const later = await live(NOW + 11 * MINUTE);
    expect(later).toMatchObject({ concurrent: 1, ended: 1, completed: 0 });
    const sketch = Object.fromEntries(Object.entries(later?.sketch ?? {}).map(([k, v]) => [k, Number(v)]));
    expect(sketch).toEqual(sketchOf([FIRST_TURN_MS]));
  });

  it('answers zeros and no sketch for a tenant with nothing live', async () => {
    expect(await live(NOW, randomUUID())).toEqual({ concurrent: 0, ended: 0, completed: 0, sketch: null });
    expect(await live(NOW + LIVE_WINDOW_MS + 60 * MINUTE)).toEqual({ concurrent: 0, ended: 0, completed: 0, sketch: null });
  });
});
