import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataKeys } from '@earshot/auth';
import { callIdOf } from '@earshot/events';
import { rebuildReadModels } from '@earshot/projector';
import { envelope, ingestHeaders, sendTranscribedCall, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';

/**
 * With EARSHOT_SEAL_EVENTS=false (and for events appended before sealing
 * existed) a call's events sit in the log in the clear, where destroying a
 * data key reaches nothing. Erasing such a call records the erasure
 * (erased_calls), and the projector passes over the call's events the log
 * stored before it: a rebuild from the log does not bring the call or its
 * outcomes back, while an event sent after the erasure makes a new call, as
 * it does under a new key with sealing on.
 */
describe('erasing a call whose events were appended in the clear', () => {
  let earshot: TestEarshot;
  let acme: EarshotTenant;
  const said = { erased: `clear-forget-${randomUUID()}`, kept: `clear-keep-${randomUUID()}`, later: `clear-later-${randomUUID()}` };
  const outcome = `clear-outcome-${randomUUID()}`;
  const idOf = (providerCallId: string) => callIdOf(acme.id, 'vapi', providerCallId);
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${earshot.origin}/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${acme.apiKey}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    });

  async function callText(providerCallId: string): Promise<{ status: number; text: string }> {
    const response = await api(`/calls/${idOf(providerCallId)}`);
    return { status: response.status, text: await response.text() };
  }

  async function projected(providerCallId: string, text: string): Promise<void> {
    for (let waited = 0; waited < 30_000; waited += 200) {
      if ((await callText(providerCallId)).text.includes(text)) return;
      await sleep(200);
    }
    throw new Error(`call ${providerCallId} was not projected with "${text}" within 30 s`);
  }

  async function outcomeValues(providerCallId: string): Promise<unknown[]> {
    const response = await api(`/outcomes?callId=${idOf(providerCallId)}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { items: { value: unknown }[] }).items.map((o) => o.value);
  }

  const rebuild = () => {
    const keys = new DataKeys(earshot.db, earshot.runtime.access().secrets);
    return rebuildReadModels({
      db: earshot.runtime.database(),
      log: earshot.runtime.log(),
      from: 'earliest',
      keys: (ids) => keys.lookup(ids),
      erasedCalls: (calls) => keys.erasedCalls(calls),
    });
  };

  beforeAll(async () => {
    earshot = await startEarshot('call-erasure-clear', { env: { EARSHOT_SEAL_EVENTS: 'false' } });
    acme = await earshot.createTenant('Acme');
    for (const [providerCallId, text] of [
      ['call-erased', said.erased],
      ['call-kept', said.kept],
    ] as const) {
      expect((await sendTranscribedCall(earshot.origin, acme, providerCallId, text)).status).toBe(202);
      await projected(providerCallId, text);
    }
    const recorded = await api('/outcomes', { method: 'POST', body: JSON.stringify({ callId: idOf('call-erased'), type: 'resolved', value: outcome }) });
    expect(recorded.status).toBe(201);
  }, 120_000);
  afterAll(async () => earshot?.stop());

  it('keeps the call and its outcomes out of the read models through a rebuild from the log', async () => {
    expect(await outcomeValues('call-erased')).toEqual([outcome]);
    const erased = await api(`/calls/${idOf('call-erased')}?reason=${encodeURIComponent('customer asked')}`, { method: 'DELETE' });
    expect(erased.status).toBe(200);
    expect(await erased.json()).toMatchObject({ dataKeyDestroyed: false, alreadyErased: false });
    expect((await callText('call-erased')).status).toBe(404);

    const summary = await rebuild();
    expect(summary.applied).toBeGreaterThanOrEqual(2);
    expect((await callText('call-erased')).status).toBe(404);
    expect(await outcomeValues('call-erased')).toEqual([]);
    expect((await callText('call-kept')).text).toContain(said.kept);
  });

  it('takes an event sent after the erasure as a new call, which a rebuild keeps', async () => {
    const body = JSON.stringify(
      envelope(`clear-later-${randomUUID()}`, {
        type: 'transcript.final',
        call: { provider_call_id: 'call-erased', agent_id: 'support-agent' },
        data: { turn_id: 'turn_9', speaker: 'customer', text: said.later, start_ms: 1_000, end_ms: 2_000, confidence: 0.9, language: 'en-US' },
      }),
    );
    const sent = await fetch(`${earshot.origin}/api/v1/webhooks/ingest`, {
      method: 'POST',
      body,
      headers: ingestHeaders({ body, credentials: acme, timestamp: Math.floor(Date.now() / 1_000) }),
    });
    expect(sent.status).toBe(202);
    await projected('call-erased', said.later);

    await rebuild();
    const after = await callText('call-erased');
    expect(after.text).toContain(said.later);
    expect(after.text).not.toContain(said.erased);
  });
});
