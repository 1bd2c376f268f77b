import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEvent } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';
import { sendOtlpExports } from './otlp-sender';
import { generateOtlpExports } from './otlp-sessions';

describe('earshot demo --otlp against a real gateway', () => {
  let gateway: TestGateway;
  let credentials: TenantCredentials;
  let url: string;

  beforeAll(async () => {
    gateway = await startTestGateway('demo-otlp');
    credentials = await gateway.createTenant('Demo OTLP');
    url = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => gateway?.stop());

  it('exports LiveKit and Pipecat sessions in halves; each becomes one call with its turns, and sending them again adds nothing', async () => {
    const exports = generateOtlpExports({ seed: 5, calls: 4, now: Date.now() });
    const target = { url, apiKey: credentials.apiKey };
    const summary = await sendOtlpExports(target, exports);
    expect(summary).toMatchObject({ requests: 8, spans: exports.reduce((n, e) => n + e.spans, 0), rejected: 0, rateLimited: 0 });

    const events = (await gateway.records(TOPICS.events)).map((r) => decodeEvent(r.value));
    const calls = new Map<string, string[]>();
    for (const event of events)
      calls.set(`${event.provider}:${event.call?.provider_call_id}`, [...(calls.get(`${event.provider}:${event.call?.provider_call_id}`) ?? []), event.type]);
    expect([...calls.keys()].map((key) => key.split(':')[0]).sort()).toEqual(['livekit', 'livekit', 'pipecat', 'pipecat']);
    for (const types of calls.values()) {
      expect(types.filter((t) => t === 'call.started' || t === 'call.ended').sort()).toEqual(['call.ended', 'call.started']);
      expect(types.filter((t) => t === 'agent.response.generated').length).toBeGreaterThanOrEqual(3 * 3);
    }

    await sendOtlpExports(target, exports.slice(0, 2));
    expect(await gateway.count(TOPICS.events)).toBe(events.length);
  });
});
