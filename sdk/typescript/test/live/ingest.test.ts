import { describe, expect, it } from 'vitest';
import { NotFoundError, type IngestEvent } from '../../src/index.js';
import { callEvents, client, eventually, faults, proxied, unique } from './target.js';

describe('ingest', () => {
  it('[ingest-then-read] sends a call signed, answers per envelope, then reads the call back with its turn', async () => {
    const earshot = client();
    const providerCallId = unique('read');
    const sent = await earshot.ingest.send(callEvents(providerCallId, 'agent_support'));
    expect(sent).toMatchObject({ accepted: 3, duplicates: 0, deadLettered: 0 });
    expect(sent.results.map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted']);
    // Envelopes without a key get a random one each.
    expect(new Set(sent.results.map((r) => r.idempotencyKey)).size).toBe(3);
    const listed = await eventually(async () => {
      for await (const call of earshot.calls.list({ agentId: 'agent_support', limit: 100 })) if (call.providerCallId === providerCallId) return call;
      return undefined;
    }, 'the call to be listed');
    const call = await eventually(async () => {
      const detail = await earshot.calls.retrieve(listed.id);
      return detail.turns.length > 0 && detail.endedAt ? detail : undefined;
    }, 'the call to end with its turn');
    expect(call).toMatchObject({ id: listed.id, providerCallId, agentId: 'agent_support', provider: 'sdk' });
    expect(call.turns).toHaveLength(1);
    expect(call.turns[0]).toMatchObject({ turnId: 't1' });
  });

  it('erases a call with a reason: its key and rows go, and it reads as not found', async () => {
    const earshot = client();
    const providerCallId = unique('erase');
    await earshot.ingest.send(callEvents(providerCallId, 'agent_erase'));
    const listed = await eventually(async () => {
      for await (const call of earshot.calls.list({ agentId: 'agent_erase', limit: 100 })) if (call.providerCallId === providerCallId) return call;
      return undefined;
    }, 'the call to be listed');
    const erased = await earshot.calls.erase(listed.id, { reason: 'the caller asked to be forgotten' });
    expect(erased).toMatchObject({ ok: true, id: listed.id, alreadyErased: false });
    expect(erased.rowsDeleted).toBeGreaterThan(0);
    await expect(earshot.calls.retrieve(listed.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(earshot.calls.erase('00000000-0000-4000-8000-000000000000', { reason: 'never was' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('[ingest-batches] sends 1,200 events as 3 signed requests and answers 1,200 results in order, duplicates and dead letters included', async () => {
    await faults.clear();
    const earshot = proxied();
    const run = unique('batch');
    const events: IngestEvent[] = Array.from({ length: 400 }, (_, i) => callEvents(`${run}-${i}`, 'agent_batch'))
      .flat()
      .map((event, i) => ({ ...event, idempotency_key: `${run}-${i}` }));
    const sent = await earshot.ingest.send(events);
    const requests = (await faults.log()).filter((r) => r.path === '/api/v1/webhooks/ingest');
    expect(requests.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(sent.results).toHaveLength(1_200);
    expect(sent.accepted).toBe(1_200);
    expect(sent.results.map((r) => r.idempotencyKey)).toEqual(events.map((e) => e.idempotency_key));

    const invalid = { ...(events[8] as IngestEvent), idempotency_key: `${run}-invalid`, version: '1999-01-01' } as unknown as IngestEvent;
    const again = await earshot.ingest.send([events[7], invalid].filter((e) => e !== undefined));
    expect(again.results[0]).toMatchObject({ status: 'duplicate', id: sent.results[7]?.id });
    expect(again.results[1]).toMatchObject({ status: 'dead_lettered' });
    expect(again.results[1]?.reason).toMatch(/version/);
    expect(again.results[1]?.deadLetterId).toEqual(expect.any(String));
    expect(again).toMatchObject({ accepted: 0, duplicates: 1, deadLettered: 1 });
  });

  it('[batcher-loses-nothing] 5,000 events from 5 producers through a batcher with back-pressure: each stored once', async () => {
    await faults.clear();
    const earshot = proxied();
    const errors: unknown[] = [];
    const batcher = earshot.ingest.batcher({ maxEvents: 250, maxDelayMs: 50, maxPending: 600, onError: (error) => errors.push(error) });
    let mostPending = 0;
    const agentId = unique('agent_load');
    const producer = async (p: number) => {
      for (let i = 0; i < 1_000; i++) {
        await batcher.add({
          type: 'call.started',
          version: '2026-01-01',
          idempotency_key: `${agentId}-${p}-${i}`,
          occurred_at: new Date().toISOString(),
          call: { provider_call_id: `${agentId}-${p}-${i}`, agent_id: agentId },
          data: {},
        });
        mostPending = Math.max(mostPending, batcher.pending);
      }
    };
    await Promise.all([0, 1, 2, 3, 4].map(producer));
    await batcher.close();
    expect(errors).toEqual([]);
    expect(mostPending).toBeLessThanOrEqual(600);
    expect(batcher.totals).toEqual({ accepted: 5_000, duplicates: 0, deadLettered: 0, failed: 0 });
    const requests = (await faults.log()).filter((r) => r.path === '/api/v1/webhooks/ingest');
    expect(requests.every((r) => r.status === 202)).toBe(true);
    expect(requests.length).toBeGreaterThanOrEqual(20);
    await expect(batcher.add(callEvents(`${agentId}-late`, agentId)[0] as IngestEvent)).rejects.toThrow(/closed/);
    // Every event became one call, none twice.
    const stored = await eventually(
      async () => {
        const ids = (await client().calls.list({ agentId, limit: 200 }).toArray()).map((c) => c.providerCallId);
        return ids.length >= 5_000 ? ids : undefined;
      },
      '5,000 calls to be listed',
      180_000,
    );
    expect(new Set(stored).size).toBe(5_000);
    expect(stored).toHaveLength(5_000);
    // Under load (the other SDK's suite on the same two cores) the projection of 5,000 calls can take a minute.
  }, 240_000);
});
