import { tracingChannel } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@earshot/telemetry';
import { kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import { eventually } from '../contract/fixtures';
import type { EventLog, Running } from '../event-log';
import { TOPICS } from '../topics';
import { createPlatformaticLog } from './platformatic-log';

/**
 * A broker restart as every client in this process sees it: each open connection is dropped, and connecting is
 * refused for a while. @platformatic/kafka hands over each connection's socket as it connects, on its diagnostics channel.
 */
class BrokerRestart {
  private readonly connects = tracingChannel('plt:kafka:connections:connects');
  private readonly open = new Set<Socket>();
  private refusing = false;
  private readonly handlers = {
    end: (message: unknown) => {
      const socket = (message as { connection: { socket?: Socket } }).connection.socket;
      if (!socket) return;
      if (this.refusing && socket.connecting) {
        socket.destroy(Object.assign(new Error('connect ECONNREFUSED (test restart)'), { code: 'ECONNREFUSED' }));
        return;
      }
      this.open.add(socket);
      socket.once('close', () => this.open.delete(socket));
    },
  };

  constructor() {
    this.connects.subscribe(this.handlers);
  }

  /** Drops every connection and refuses new ones for `ms`: longer than the client's own retries (8, 250 ms apart) last. */
  async restart(ms: number): Promise<void> {
    this.refusing = true;
    for (const socket of this.open) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, ms));
    this.refusing = false;
  }

  close(): void {
    this.connects.unsubscribe(this.handlers);
  }
}

describe('the @platformatic/kafka log reading across a broker restart', () => {
  let log: EventLog | undefined;
  let restart: BrokerRestart | undefined;
  const readers: Running[] = [];
  afterEach(async () => {
    restart?.close();
    await Promise.all(readers.map((reader) => reader.stop()));
    await log?.close();
  });

  it('starts its consumer and its live subscription again, which read on where they were', async () => {
    const warnings: string[] = [];
    const destination = { write: (line: string) => void warnings.push((JSON.parse(line) as { msg: string }).msg) };
    const logger = createLogger({ level: 'warn', pretty: false, destination });
    log = await createPlatformaticLog({ brokers: kafkaBrokers(), clientId: 'test-platformatic-reading', namespace: uniqueNamespace('reading'), logger });
    restart = new BrokerRestart();
    const consumed: string[] = [];
    const live: string[] = [];
    readers.push(
      await log.consume({
        group: 'projector',
        topics: [TOPICS.events],
        onBatch: async (records) => void consumed.push(...records.map((r) => r.value.toString())),
      }),
      await log.subscribe({ topics: [TOPICS.events], from: 'latest', onRecord: (record) => live.push(record.value.toString()) }),
    );
    const append = (value: string) => log?.append([{ topic: TOPICS.events, key: 'tenant:call', value: Buffer.from(value) }]);
    await append('before');
    await eventually(() => consumed.includes('before') && live.includes('before'), 30_000);

    await restart.restart(6_000);
    await append('after');
    await eventually(() => consumed.includes('after') && live.includes('after'), 90_000);
    // Both ended when the client gave up on the broker, rather than riding the restart out within its own retries.
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^the consumer of group projector stopped reading; starting it again/),
        expect.stringMatching(/^a live subscription stopped reading; starting it again/),
      ]),
    );
    // Each once: the subscription read on after the last record it handed on.
    expect(live).toEqual(['before', 'after']);
  }, 120_000);
});
