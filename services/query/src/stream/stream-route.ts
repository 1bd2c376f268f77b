import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { EVENT_TYPES, validationError } from '@earshot/contracts';
import { EVENT_HEADERS } from '@earshot/events';
import type { EventLog, LogRecord } from '@earshot/log';
import { eventsTopic } from '@earshot/topics';
import type { RoutePolicy } from '@earshot/server';
import type { LiveEvents } from './live-events';
import { StreamClient, type StreamLimits } from './stream-client';
import { decodePosition, logPositions, reaches, type StreamPosition } from './stream-position';

export const STREAM_PATH = '/api/v1/stream';
/** The subprotocol the server speaks; a browser passes its key as a second one, `bearer.<key>`. */
export const STREAM_PROTOCOL = 'earshot.v1';

const StreamQuerySchema = z.strictObject({
  types: z
    .string()
    .max(2_000)
    .optional()
    .transform((value, context) => {
      if (value === undefined) return undefined;
      const types = value
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
      if (unknown.length > 0) context.addIssue({ code: 'custom', message: `unknown event types: ${unknown.join(', ')}` });
      return new Set(types);
    }),
  agentId: z.string().min(1).max(200).optional(),
  callId: z.string().min(1).max(200).optional(),
  /** The position of the last message read, to resume after a reconnect. */
  after: z.string().min(1).max(4_000).optional(),
});

/**
 * Sends what a resuming client missed, from its own reader of the log, until it reaches where the log ended when it connected.
 * Records are opened one at a time, in order, with the keys of the client's tenant; a failure ends the catch-up through `fail`.
 */
async function catchUp(client: StreamClient, log: EventLog, live: LiveEvents, from: StreamPosition, fail: (error: unknown) => void): Promise<void> {
  const ends = await live.ends();
  if (reaches(from, ends)) return client.finishCatchUp();
  let reader: { stop(): Promise<void> } | undefined;
  let done = false;
  let read: Promise<void> = Promise.resolve();
  const keys = live.keys.fresh();
  const finish = () => {
    if (done) return;
    done = true;
    client.finishCatchUp();
    void reader?.stop();
  };
  const next = async (record: LogRecord) => {
    if (done) return;
    const ours = record.headers[EVENT_HEADERS.tenant] === client.tenantId;
    client.caughtUpRecord(record.partition, BigInt(record.offset), ours ? await keys.read(record, client.tenantId) : null);
    if (reaches(client.position(), ends)) finish();
  };
  reader = await log.subscribe({
    topics: [eventsTopic.name],
    from: logPositions(from),
    onRecord: (record) => {
      read = read
        .then(() => next(record))
        .catch((error: unknown) => {
          done = true;
          void reader?.stop();
          fail(error);
        });
    },
  });
  if (done) await reader.stop();
}

/** GET /api/v1/stream (WebSocket): the tenant's events as they are appended, filtered, with heartbeats and resume. */
export async function registerStreamRoute(app: FastifyInstance, log: EventLog, live: LiveEvents, policy: RoutePolicy, options: StreamLimits): Promise<void> {
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 4_096, handleProtocols: (protocols: Set<string>) => (protocols.has(STREAM_PROTOCOL) ? STREAM_PROTOCOL : false) },
    // A drain cannot wait on clients to finish a close handshake: they are cut, and resume from their last position.
    preClose: function (this: FastifyInstance, done: () => void) {
      for (const client of this.websocketServer.clients) client.terminate();
      this.websocketServer.close(() => done());
    },
  });
  app.get(
    STREAM_PATH,
    {
      websocket: true,
      config: { policy },
      preValidation: async (request: FastifyRequest) => {
        const query = StreamQuerySchema.safeParse(request.query);
        if (!query.success) throw validationError(query.error, 'the stream query');
        if (query.data.after !== undefined) decodePosition(query.data.after);
      },
    },
    async (socket: WebSocket, request: FastifyRequest) => {
      const query = StreamQuerySchema.parse(request.query);
      const tenantId = request.caller?.tenant.id ?? '';
      await live.start();
      let from: StreamPosition | null = null;
      if (query.after !== undefined) {
        // Partitions the position does not name are read from now on.
        const ends = await live.ends();
        from = new Map([...[...ends].map(([p, end]): [number, bigint] => [p, end - 1n]), ...decodePosition(query.after)]);
      }
      const filter = {
        ...(query.types ? { types: query.types } : {}),
        ...(query.agentId ? { agentId: query.agentId } : {}),
        ...(query.callId ? { callId: query.callId } : {}),
      };
      const client = new StreamClient(tenantId, socket, filter, options, from, () => live.position());
      live.add(client);
      const heartbeat = setInterval(() => {
        client.message('heartbeat');
        socket.ping();
      }, options.heartbeatMs);
      socket.on('close', () => {
        clearInterval(heartbeat);
        live.remove(client);
      });
      client.message('ready');
      if (from) {
        const fail = (error: unknown) => {
          request.log.error({ err: error }, 'stream catch-up failed');
          socket.close(1011, 'the log is unavailable; retry');
        };
        await catchUp(client, log, live, from, fail).catch(fail);
      }
    },
  );
}
