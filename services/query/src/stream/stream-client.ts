import type { WebSocket } from 'ws';
import type { StoredEvent } from '@earshot/contracts';
import { callIdOf } from '@earshot/events';
import type { LiveEvent, LiveSubscriber } from './live-events';
import { encodePosition, type StreamPosition } from './stream-position';

export interface StreamFilter {
  types?: ReadonlySet<string>;
  agentId?: string;
  /** The call's id in the API, or the provider's call id. */
  callId?: string;
}

export interface StreamLimits {
  /** Bytes the socket may hold unsent before the client is told it is too slow and dropped. */
  maxBufferedBytes: number;
  /** Live events kept while a resuming client catches up, before it is dropped. */
  maxQueuedEvents: number;
  /** How often a client hears from the server; a dropped client has as long to take its close frame. */
  heartbeatMs: number;
}

/** The close code for a client dropped for reading too slowly (4000–4999 are the application's). */
export const SLOW_CLIENT_CLOSE = 4008;

function matches(filter: StreamFilter, event: StoredEvent): boolean {
  if (filter.types && !filter.types.has(event.type)) return false;
  if (filter.agentId !== undefined && event.call?.agent_id !== filter.agentId) return false;
  if (filter.callId !== undefined) {
    const call = event.call;
    if (!call || (call.provider_call_id !== filter.callId && callIdOf(event.tenant, event.provider, call.provider_call_id) !== filter.callId)) return false;
  }
  return true;
}

/**
 * One WebSocket client of the stream. Live, it sends what the shared
 * subscription hands it; resuming, it first sends what it missed (from its
 * own catch-up reader) and holds live events until it has caught up, then
 * sends those it has not passed. Every send checks the socket's backlog: a
 * client that does not keep up is told why and dropped, never waited for.
 */
export class StreamClient implements LiveSubscriber {
  private catchingUp: boolean;
  private readonly held: LiveEvent[] = [];
  private readonly passed: Map<number, bigint>;
  private closed = false;

  constructor(
    readonly tenantId: string,
    private readonly socket: WebSocket,
    private readonly filter: StreamFilter,
    private readonly limits: StreamLimits,
    from: StreamPosition | null,
    private readonly sharedPosition: () => StreamPosition,
  ) {
    this.catchingUp = from !== null;
    this.passed = new Map(from ?? []);
    socket.on('close', () => {
      this.closed = true;
    });
  }

  get isCatchingUp(): boolean {
    return this.catchingUp;
  }

  /** A record of the shared subscription. */
  receive(live: LiveEvent): void {
    if (this.closed) return;
    if (!this.catchingUp) return this.pass(live);
    if (this.held.length >= this.limits.maxQueuedEvents) return this.drop(`more than ${this.limits.maxQueuedEvents} live events arrived while catching up`);
    this.held.push(live);
  }

  /** A record the catch-up reader passed, of any tenant (each one moves the client's position). */
  caughtUpRecord(partition: number, offset: bigint, event: StoredEvent | null): void {
    if (this.closed || !this.catchingUp || offset <= (this.passed.get(partition) ?? -1n)) return;
    this.passed.set(partition, offset);
    if (event) this.send(event, JSON.stringify(event), this.token());
  }

  position(): StreamPosition {
    return this.passed;
  }

  /** Caught up: the held live events it has not passed go out, and it turns live. */
  finishCatchUp(): void {
    if (!this.catchingUp) return;
    this.catchingUp = false;
    for (const live of this.held.splice(0)) this.pass(live);
  }

  /**
   * Sends a live event unless the client has passed it already: its catch-up
   * reader may have run ahead of the shared subscription.
   */
  private pass(live: LiveEvent): void {
    if (live.offset <= (this.passed.get(live.partition) ?? -1n)) return;
    this.passed.set(live.partition, live.offset);
    this.send(live.event, live.json, this.token());
  }

  /** A live client has passed everything the shared subscription has, and its own records beyond. */
  private token(): string {
    if (this.catchingUp) return encodePosition(this.passed);
    const merged = new Map(this.sharedPosition());
    for (const [partition, offset] of this.passed) if (offset > (merged.get(partition) ?? -1n)) merged.set(partition, offset);
    return encodePosition(merged);
  }

  message(kind: 'ready' | 'heartbeat'): void {
    if (this.closed) return;
    this.write(JSON.stringify({ type: kind, at: new Date().toISOString(), position: this.token() }));
  }

  private send(event: StoredEvent, json: string, position: string): void {
    if (this.closed || !matches(this.filter, event)) return;
    this.write(`{"type":"event","position":${JSON.stringify(position)},"event":${json}}`);
  }

  private write(text: string): void {
    if (this.socket.bufferedAmount > this.limits.maxBufferedBytes) return this.drop(`more than ${this.limits.maxBufferedBytes} bytes were waiting to be read`);
    this.socket.send(text);
  }

  /** Tells the client why (the notice and the close reason queue behind what it has not read) and lets it go. */
  drop(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.held.length = 0;
    this.socket.send(JSON.stringify({ type: 'dropped', reason: `too slow: ${reason}; reconnect with the last position you read` }));
    this.socket.close(SLOW_CLIENT_CLOSE, 'too slow');
    // A reader that has stopped reading may never take the close frame either; one that only paused (a busy tab,
    // a phone changing networks) has a heartbeat interval to read its backlog and the notice before it is cut.
    setTimeout(() => this.socket.terminate(), Math.max(this.limits.heartbeatMs, 5_000)).unref();
  }
}
