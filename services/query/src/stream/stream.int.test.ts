import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { StoredEvent } from '@earshot/contracts';
import { sampleEvent } from '@earshot/events/samples';
import { callIdOf } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { appendEvents, callScript, ingestHeaders, sendProjectedCall, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { SLOW_CLIENT_CLOSE } from './stream-client';
import { STREAM_PATH, STREAM_PROTOCOL } from './stream-route';

interface StreamMessage {
  type: 'ready' | 'heartbeat' | 'event' | 'dropped';
  position?: string;
  reason?: string;
  event?: StoredEvent;
}

/** A stream client that keeps every message, and waits (without a clock) for the ones a test expects. */
class Reader {
  readonly messages: StreamMessage[] = [];
  private waiting: (() => void) | undefined;
  closed: { code: number; reason: string } | undefined;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse((data as Buffer).toString('utf8')) as StreamMessage);
      this.waiting?.();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.waiting?.();
    });
  }

  events(): StoredEvent[] {
    return this.messages.flatMap((m) => (m.type === 'event' && m.event ? [m.event] : []));
  }

  async until(done: (reader: Reader) => boolean): Promise<void> {
    while (!done(this)) {
      if (this.closed) throw new Error(`the stream closed (${this.closed.code} ${this.closed.reason}) before the test saw what it waited for`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  close(): void {
    this.socket.close();
  }
}

function open(earshot: TestEarshot, query: string, auth: { header?: string; protocolKey?: string }): Promise<Reader> {
  const url = `${earshot.origin.replace('http', 'ws')}${STREAM_PATH}${query}`;
  const protocols = auth.protocolKey ? [STREAM_PROTOCOL, `bearer.${auth.protocolKey}`] : [STREAM_PROTOCOL];
  const socket = new WebSocket(url, protocols, { headers: auth.header ? { authorization: `Bearer ${auth.header}` } : {} });
  return new Promise((resolve, reject) => {
    const reader = new Reader(socket);
    // A client listening for unexpected-response must end the request itself (ws leaves it open).
    socket.once('unexpected-response', (request, response) => {
      request.destroy();
      reject(new Error(`HTTP ${response.statusCode}`));
    });
    socket.once('error', reject);
    socket.once('open', () => void reader.until((r) => r.messages.length > 0).then(() => resolve(reader), reject));
  });
}

const keysOf = (events: readonly StoredEvent[]) => events.map((e) => e.idempotency_key);

describe.each(['kafka', 'embedded'] as const)('/api/v1/stream on the %s log', (log) => {
  let earshot: TestEarshot;
  let acme: EarshotTenant;
  let globex: EarshotTenant;

  beforeAll(async () => {
    earshot = await startEarshot(`stream-${log}`, { log, env: { EARSHOT_STREAM_HEARTBEAT_MS: '200' } });
    acme = await earshot.createTenant('Acme');
    globex = await earshot.createTenant('Globex');
  }, 120_000);
  afterAll(async () => earshot?.stop());

  it('pushes the tenant’s events as they are appended, decoded, only its own, filtered, with heartbeats', async () => {
    const all = await open(earshot, '', { header: acme.apiKey });
    const failedTools = await open(earshot, '?types=tool.call.failed,call.ended&agentId=agent_sales', { header: acme.apiKey });
    const oneCall = await open(earshot, `?callId=${callIdOf(acme.id, 'vapi', 'live-2')}`, { protocolKey: acme.apiKey });
    expect(all.messages[0]).toMatchObject({ type: 'ready', position: expect.any(String) });
    expect(oneCall.socket.protocol).toBe(STREAM_PROTOCOL);

    const ours = [
      ...callScript({ tenant: acme.id, providerCallId: 'live-1', turns: 1 }),
      ...callScript({ tenant: acme.id, providerCallId: 'live-2', turns: 1, agentId: 'agent_sales' }),
    ];
    const theirs = callScript({ tenant: globex.id, providerCallId: 'theirs-1', turns: 1 });
    await appendEvents(earshot.runtime.log(), [...theirs, ...ours]);

    await all.until((r) => r.events().length >= ours.length && r.messages.some((m) => m.type === 'heartbeat'));
    expect(keysOf(all.events()).sort()).toEqual(keysOf(ours).sort());
    expect(all.events().every((e) => e.tenant === acme.id)).toBe(true);
    const expectedFiltered = ours.filter((e) => e.call?.agent_id === 'agent_sales' && ['tool.call.failed', 'call.ended'].includes(e.type));
    await failedTools.until((r) => r.events().length >= expectedFiltered.length);
    await oneCall.until((r) => r.events().length >= ours.length / 2);
    expect(keysOf(oneCall.events()).sort()).toEqual(keysOf(ours.filter((e) => e.call?.provider_call_id === 'live-2')).sort());
    for (const reader of [all, failedTools, oneCall]) reader.close();
    expect(keysOf(failedTools.events())).toEqual(keysOf(expectedFiltered));
  });

  it('resumes after a reconnect from the last position read: what was missed, then live, each once', async () => {
    const first = await open(earshot, '', { header: acme.apiKey });
    const before = callScript({ tenant: acme.id, providerCallId: 'resume-1', turns: 1 });
    await appendEvents(earshot.runtime.log(), before);
    await first.until((r) => r.events().length >= before.length);
    const cut = first.messages.filter((m) => m.type === 'event')[2];
    first.close();

    const missed = callScript({ tenant: acme.id, providerCallId: 'resume-2', turns: 1 });
    await appendEvents(earshot.runtime.log(), missed);
    const again = await open(earshot, `?after=${cut?.position}`, { header: acme.apiKey });
    const later = callScript({ tenant: acme.id, providerCallId: 'resume-3', turns: 1 });
    const expected = [...before.slice(3), ...missed, ...later];
    await appendEvents(earshot.runtime.log(), later);
    await again.until((r) => r.events().length >= expected.length);
    again.close();
    expect(keysOf(again.events()).sort()).toEqual(keysOf(expected).sort());
    expect(new Set(keysOf(again.events())).size).toBe(again.events().length);
  });

  it('refuses a missing key (401), a key without calls:read (403) and a bad filter or position (400)', async () => {
    await expect(open(earshot, '', {})).rejects.toThrow('HTTP 401');
    const usageOnly = await earshot.createKey(acme.id, ['usage:read']);
    await expect(open(earshot, '', { header: usageOnly })).rejects.toThrow('HTTP 403');
    await expect(open(earshot, '?types=call.exploded', { header: acme.apiKey })).rejects.toThrow('HTTP 400');
    await expect(open(earshot, '?after=not-a-position', { header: acme.apiKey })).rejects.toThrow('HTTP 400');
  });
});

describe('/api/v1/stream with a slow client', () => {
  let earshot: TestEarshot;
  let acme: EarshotTenant;

  beforeAll(async () => {
    // Above what one step below waits for the reading client (four events of 200 KB); the slow one is sent ten times it.
    earshot = await startEarshot('stream-slow', { env: { EARSHOT_STREAM_BUFFER_BYTES: String(2 * 1024 * 1024) } });
    acme = await earshot.createTenant('Acme');
  }, 120_000);
  afterAll(async () => earshot?.stop());

  it('tells a client that stops reading why and drops it, while a reading client and ingest carry on', async () => {
    const slow = await open(earshot, '', { header: acme.apiKey });
    const reading = await open(earshot, '', { header: acme.apiKey });
    // The slow client stops reading: its socket and the server's fill, then the server's backlog grows past the limit.
    (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const text = 'x'.repeat(200_000);
    const big = Array.from({ length: 100 }, (_, i) => sampleEvent('transcript.final', { tenant: acme.id, idempotency_key: `big-${i}`, data: { text } }));
    // Kafka takes at most 1 MB in one produce request: a few at a time, each once the reading client has it, so what
    // waits for that client stays under the limit however starved of CPU this process is.
    for (let i = 0; i < big.length; i += 4) {
      await appendEvents(earshot.runtime.log(), big.slice(i, i + 4));
      await reading.until((r) => r.events().length >= Math.min(i + 4, big.length));
    }
    const more = callScript({ tenant: acme.id, providerCallId: 'after-slow', turns: 1 });
    await appendEvents(earshot.runtime.log(), more);
    await reading.until((r) => r.events().length >= big.length + more.length);
    reading.close();

    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await slow.until((r) => r.closed !== undefined).catch(() => undefined);
    slow.socket.terminate();
    expect(slow.closed?.code).toBe(SLOW_CLIENT_CLOSE);
    expect(slow.messages.at(-1)).toMatchObject({ type: 'dropped', reason: expect.stringContaining('too slow') });
    expect(slow.events().length).toBeLessThan(big.length);
  });
});

describe('/api/v1/stream on sealed events', () => {
  let earshot: TestEarshot;
  let acme: EarshotTenant;
  let globex: EarshotTenant;

  async function send(tenant: EarshotTenant, callId: string, text: string): Promise<void> {
    const events = (['call.started', 'transcript.final'] as const).map((type) => {
      const {
        tenant: _t,
        provider: _p,
        received_at: _r,
        ...incoming
      } = sampleEvent(type, {
        idempotency_key: `${callId}:${type}`,
        call: { provider_call_id: callId, customer_id: `customer-of-${callId}` },
        ...(type === 'transcript.final' ? { data: { text } } : {}),
      });
      return incoming;
    });
    const body = JSON.stringify(events);
    const timestamp = Math.floor(Date.now() / 1_000);
    const response = await fetch(`${earshot.origin}/api/v1/webhooks/ingest`, {
      method: 'POST',
      body,
      headers: ingestHeaders({ body, credentials: tenant, timestamp }),
    });
    expect(response.status).toBe(202);
  }

  const texts = (reader: Reader) => reader.events().flatMap((e) => (e.type === 'transcript.final' ? [String(e.data.text)] : []));

  beforeAll(async () => {
    earshot = await startEarshot('stream-sealed');
    acme = await earshot.createTenant('Acme');
    globex = await earshot.createTenant('Globex');
  }, 120_000);
  afterAll(async () => earshot?.stop());

  it('opens the tenant’s own sealed fields, live and when resuming, and sends nothing of an erased call', async () => {
    const live = await open(earshot, '', { header: acme.apiKey });
    const start = live.messages[0]?.position;
    const theirs = await open(earshot, '', { header: globex.apiKey });
    await send(acme, 'sealed-1', 'my card ends 4242');
    await send(globex, 'sealed-2', 'globex private words');
    await live.until((r) => texts(r).length >= 1);
    await theirs.until((r) => texts(r).length >= 1);
    expect(texts(live)).toEqual(['my card ends 4242']);
    expect(live.events().find((e) => e.call)?.call?.customer_id).toBe('customer-of-sealed-1');
    expect(texts(theirs)).toEqual(['globex private words']);
    live.close();
    theirs.close();

    const erased = await fetch(`${earshot.origin}/api/v1/calls/${callIdOf(acme.id, 'vapi', 'sealed-1')}?reason=asked`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${acme.apiKey}` },
    });
    expect(erased.status).toBe(200);
    await send(acme, 'sealed-3', 'a later call');
    // Resuming from before the erased call: its events are passed over, the later call comes through opened.
    const again = await open(earshot, `?after=${start}`, { header: acme.apiKey });
    await again.until((r) => r.events().filter((e) => e.call).length >= 2);
    again.close();
    // Billing's events about no call come through too; of the calls' events, only the later call's.
    expect(again.events().flatMap((e) => (e.call ? [e.call.provider_call_id] : []))).toEqual(['sealed-3', 'sealed-3']);
    expect(texts(again)).toEqual(['a later call']);
  });
});

describe('/api/v1/stream on events appended in the clear', () => {
  let earshot: TestEarshot;
  let acme: EarshotTenant;
  const said = { erased: `stream-forget-${randomUUID()}`, kept: `stream-keep-${randomUUID()}` };

  /** True once a message's position has passed every record the log held when asked: the client has had all it will get of them. */
  async function passedTheEnd(): Promise<(reader: Reader) => boolean> {
    const ends = await earshot.runtime.log().ends(TOPICS.events);
    return (reader) =>
      reader.messages.some((m) => {
        const position = m.position === undefined ? {} : (JSON.parse(Buffer.from(m.position, 'base64url').toString('utf8')) as Record<string, string>);
        return ends.every((e) => BigInt(position[e.partition] ?? '-1') >= BigInt(e.end) - 1n);
      });
  }

  const callsOf = (reader: Reader) => reader.events().flatMap((e) => (e.call ? [e.call.provider_call_id] : []));

  beforeAll(async () => {
    earshot = await startEarshot('stream-clear', { env: { EARSHOT_SEAL_EVENTS: 'false', EARSHOT_STREAM_HEARTBEAT_MS: '200' } });
    acme = await earshot.createTenant('Acme');
  }, 120_000);
  afterAll(async () => earshot?.stop());

  it('resuming from before a call’s erasure, sends none of its events stored before it, and the other call’s', async () => {
    const live = await open(earshot, '', { header: acme.apiKey });
    const start = live.messages[0]?.position;
    await sendProjectedCall(earshot.origin, acme, 'clear-erased', said.erased);
    await sendProjectedCall(earshot.origin, acme, 'clear-kept', said.kept);
    await live.until((r) => callsOf(r).length >= 4);
    live.close();
    expect(callsOf(live).sort()).toEqual(['clear-erased', 'clear-erased', 'clear-kept', 'clear-kept']);

    const erased = await fetch(`${earshot.origin}/api/v1/calls/${callIdOf(acme.id, 'vapi', 'clear-erased')}?reason=asked`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${acme.apiKey}` },
    });
    expect(erased.status).toBe(200);
    expect(await erased.json()).toMatchObject({ dataKeyDestroyed: false });

    const again = await open(earshot, `?after=${start}`, { header: acme.apiKey });
    await again.until(await passedTheEnd());
    again.close();
    expect(callsOf(again)).toEqual(['clear-kept', 'clear-kept']);
    expect(JSON.stringify(again.events())).not.toContain(said.erased);
  });
});
