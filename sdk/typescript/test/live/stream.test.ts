import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/index.js';
import { callEvents, eventually, faults, proxied, unique } from './target.js';

describe('the event stream', () => {
  it('[stream-resume] receives ingested events and, after the proxy drops it, resumes from its last position: every event once', async () => {
    const earshot = proxied();
    const agentId = unique('agent_stream');
    const stream = earshot.stream.subscribe({ agentId });
    const received: StreamEvent[] = [];
    const reading = (async () => {
      for await (const message of stream) received.push(message);
    })();
    await eventually(() => stream.position, 'the stream to be ready');

    const first = callEvents(`${agentId}-1`, agentId);
    await earshot.ingest.send(first);
    await eventually(() => (received.length >= 3 ? true : undefined), 'the first call on the stream');

    await faults.dropStreams();
    // Sent while the stream is down: it must catch up on these after it reconnects.
    const second = callEvents(`${agentId}-2`, agentId);
    await earshot.ingest.send(second);
    await eventually(() => (received.length >= 6 ? true : undefined), 'the second call after the resume');
    const third = callEvents(`${agentId}-3`, agentId);
    await earshot.ingest.send(third);
    await eventually(() => (received.length >= 9 ? true : undefined), 'the third call');
    await new Promise((resolve) => setTimeout(resolve, 500));
    stream.close();
    await reading;

    expect(stream.reconnects).toBeGreaterThanOrEqual(1);
    const keys = received.map((m) => m.event.idempotency_key);
    expect(new Set(keys).size).toBe(keys.length);
    const callOf = (event: object) => (event as { call?: { provider_call_id?: string } }).call?.provider_call_id;
    expect(received.map((m) => `${callOf(m.event)} ${String(m.event.type)}`)).toEqual(
      [...first, ...second, ...third].map((e) => `${callOf(e)} ${String(e.type)}`),
    );
  });
});
