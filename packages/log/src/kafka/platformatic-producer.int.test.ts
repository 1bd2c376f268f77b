import { tracingChannel } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerOutage, kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import type { EventLog } from '../event-log';
import { TOPICS } from '../topics';
import type { KafkaLogOptions } from './kafka-log';
import { createPlatformaticLog } from './platformatic-log';

/** What @platformatic/kafka publishes of a connection: its socket, and the API a request calls (0 is Produce). */
interface ConnectionContext {
  connection: { socket?: Socket };
  apiKey?: number;
}

const PRODUCE = 0;

/**
 * @platformatic/kafka has no socket factory: its diagnostics channels hand
 * over each connection's socket as it connects and as it writes a request.
 */
class Outage extends BrokerOutage {
  private readonly requests = tracingChannel('plt:kafka:connections:api');
  private readonly connects = tracingChannel('plt:kafka:connections:connects');
  private readonly handlers = {
    requests: {
      start: (message: unknown) => {
        const { connection, apiKey } = message as ConnectionContext;
        if (this.cutting && apiKey === PRODUCE && connection.socket) this.watch(connection.socket);
      },
    },
    connects: {
      end: (message: unknown) => {
        const socket = (message as ConnectionContext).connection.socket;
        // Refused as a restarting broker's port refuses: the client hears a connection error, not silence.
        if (this.refusing && socket?.connecting) socket.destroy(Object.assign(new Error('connect ECONNREFUSED (test outage)'), { code: 'ECONNREFUSED' }));
      },
    },
  };

  constructor() {
    super();
    this.requests.subscribe(this.handlers.requests);
    this.connects.subscribe(this.handlers.connects);
  }

  close(): void {
    this.requests.unsubscribe(this.handlers.requests);
    this.connects.unsubscribe(this.handlers.connects);
  }
}

describe('the @platformatic/kafka log across a broker restart', () => {
  let log: EventLog | undefined;
  let outage: Outage | undefined;
  afterEach(async () => {
    outage?.close();
    await log?.close();
  });

  const open = async (options: Pick<KafkaLogOptions, 'deliveryTimeoutMs' | 'maxQueued'> = {}) => {
    log = await createPlatformaticLog({ brokers: kafkaBrokers(), clientId: 'test-platformatic-restart', namespace: uniqueNamespace('restart'), ...options });
    outage = new Outage();
    return log;
  };
  const append = (opened: EventLog, values: string[]) =>
    opened.append(values.map((value) => ({ topic: TOPICS.events, key: 'tenant:call', value: Buffer.from(value) }))).then(
      () => 'acknowledged',
      (error: unknown) => `failed: ${String(error)}`,
    );
  const stored = async (opened: EventLog) => {
    const values: string[] = [];
    await opened.replay({ topics: [TOPICS.events], from: 'earliest', onBatch: async (records) => void values.push(...records.map((r) => r.value.toString())) });
    return values;
  };

  it('stores a request whose answer was lost, once, and the next request of as many records as well', async () => {
    const opened = await open();
    expect(await append(opened, ['a1'])).toBe('acknowledged');
    // Longer than the client's own retries (8, 250 ms apart) last: the stored request must be sent again, not given up.
    const back = outage?.cutNextAnswer(8_000);
    const cut = append(opened, ['b1', 'b2', 'b3']);
    await back;
    // As many records as the cut request: a producer whose sequence stayed put would have this taken for its duplicate.
    expect({ cut: await cut, after: await append(opened, ['c1', 'c2', 'c3']), stored: await stored(opened) }).toEqual({
      cut: 'acknowledged',
      after: 'acknowledged',
      stored: ['a1', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3'],
    });
  }, 120_000);

  it('after giving a request up, stores the next one rather than answering it as that request’s duplicate', async () => {
    const opened = await open({ deliveryTimeoutMs: 3_000 });
    expect(await append(opened, ['a1'])).toBe('acknowledged');
    const back = outage?.cutNextAnswer(8_000);
    const cut = append(opened, ['b1', 'b2', 'b3']);
    await back;
    const given = await cut;
    // The broker stored the given-up request: an append that failed may have been stored (the gateway keeps such keys claimed).
    expect({ given: given.startsWith('failed'), after: await append(opened, ['c1', 'c2', 'c3']), stored: await stored(opened) }).toEqual({
      given: true,
      after: 'acknowledged',
      stored: ['a1', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3'],
    });
  }, 120_000);

  it('refuses at once an append past the queue bound while a request is sent again, and stores the queued ones once the broker is back', async () => {
    const opened = await open({ maxQueued: 2 });
    expect(await append(opened, ['a1'])).toBe('acknowledged');
    const back = outage?.cutNextAnswer(8_000);
    const cut = append(opened, ['b1']);
    const queued = append(opened, ['c1', 'c2']);
    // Two records already wait behind b1: the caller hears at once, not after the outage, that nothing of d1 was stored.
    expect(await append(opened, ['d1'])).toContain('QueueFull');
    await back;
    expect({ cut: await cut, queued: await queued, stored: await stored(opened) }).toEqual({
      cut: 'acknowledged',
      queued: 'acknowledged',
      stored: ['a1', 'b1', 'c1', 'c2'],
    });
  }, 120_000);
});
