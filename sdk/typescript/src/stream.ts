import { retryDelayMs, sleep } from './backoff.js';
import { ConnectionError } from './errors.js';
import type { EventEnvelope } from './models.js';

export interface StreamFilters {
  /** Event types to receive, e.g. `['call.started', 'call.ended']`; default all. */
  types?: readonly string[];
  agentId?: string;
  /** The call's id in the API, or the provider's call id. */
  callId?: string;
  /** A position from an earlier stream: start after it. */
  after?: string;
  /** Reconnections in a row that may fail before the stream gives up. Default 10. */
  maxReconnects?: number;
  /** The WebSocket class to use. Default: the global WebSocket (browsers, Node 22+), else the `ws` package. */
  WebSocket?: WebSocketClass;
}

/** An event as stored: its envelope and what the gateway added. */
export type StoredEvent = EventEnvelope & { tenant?: string; provider?: string; received_at?: string; [field: string]: unknown };

/** One event of the stream and the position to resume after it. */
export interface StreamEvent {
  position: string;
  event: StoredEvent;
}

interface WebSocketLike {
  readonly readyState: number;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketClass = new (url: string, protocols: string[]) => WebSocketLike;

const PROTOCOL = 'earshot.v1';

async function webSocketClass(given: WebSocketClass | undefined): Promise<WebSocketClass> {
  if (given) return given;
  const global = (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
  if (global) return global;
  const { WebSocket } = await import('ws');
  return WebSocket;
}

/** The stream's WebSocket URL: the base URL's, with ws(s) and the filters. */
function streamUrl(baseUrl: string, filters: StreamFilters, after: string | undefined): string {
  const url = new URL(`${baseUrl}/stream`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (filters.types && filters.types.length > 0) url.searchParams.set('types', filters.types.join(','));
  if (filters.agentId) url.searchParams.set('agentId', filters.agentId);
  if (filters.callId) url.searchParams.set('callId', filters.callId);
  if (after) url.searchParams.set('after', after);
  return url.toString();
}

/**
 * `earshot.stream.subscribe(...)`: the tenant's events as they are stored,
 * over the WebSocket. It remembers the position of the last message and,
 * after a drop, reconnects from there, so nothing is missed or repeated.
 * Iterate it with `for await`; `close()` ends it.
 */
export class EventStream implements AsyncIterable<StreamEvent> {
  /** The position after the last message received: pass it as `after` to resume elsewhere. */
  position: string | undefined;
  /** How many times the stream reconnected after a drop. */
  reconnects = 0;
  private readonly received: StreamEvent[] = [];
  private wake: (() => void) | undefined;
  private socket: WebSocketLike | undefined;
  private closed = false;
  private failure: Error | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly filters: StreamFilters,
  ) {
    this.position = filters.after;
    void this.run();
  }

  /** Ends the stream; iteration finishes after the events already received. */
  close(): void {
    this.closed = true;
    this.socket?.close(1000, 'closed by the client');
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    try {
      for (;;) {
        const next = this.received.shift();
        if (next) {
          yield next;
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.closed) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      if (!this.closed) this.close();
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async run(): Promise<void> {
    const Socket = await webSocketClass(this.filters.WebSocket);
    const maxReconnects = this.filters.maxReconnects ?? 10;
    let failures = 0;
    while (!this.closed) {
      const ready = await this.connect(Socket);
      if (this.closed) break;
      failures = ready ? 0 : failures + 1;
      if (failures > maxReconnects) {
        this.failure = new ConnectionError(`the stream could not reconnect after ${maxReconnects} tries`);
        this.notify();
        return;
      }
      this.reconnects += 1;
      await sleep(retryDelayMs(Math.max(1, failures), undefined));
    }
  }

  /** One connection, until it closes; answers whether it got as far as the server's `ready`. */
  private connect(Socket: WebSocketClass): Promise<boolean> {
    return new Promise((resolve) => {
      let ready = false;
      // The key rides as a subprotocol: browsers cannot set headers on a WebSocket.
      const socket = new Socket(streamUrl(this.baseUrl, this.filters, this.position), [PROTOCOL, `bearer.${this.apiKey}`]);
      this.socket = socket;
      socket.addEventListener('message', ({ data }) => {
        const message = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer)) as {
          type: string;
          position?: string;
          event?: StoredEvent;
        };
        if (message.type === 'ready') ready = true;
        if (message.type === 'event' && message.event && message.position) {
          this.received.push({ position: message.position, event: message.event });
          this.notify();
        }
        if (message.position) this.position = message.position;
      });
      socket.addEventListener('error', () => undefined);
      socket.addEventListener('close', () => resolve(ready));
    });
  }
}
