import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { ApiError } from '@earshot/contracts';

/** What one process allows each connection and how many it holds (EARSHOT_HTTP_* in the configuration). */
export interface ConnectionLimits {
  /** Time to receive a request's headers: a sender trickling them in (slowloris) is answered 408. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, its body included: a body that stalls is answered 408. */
  requestTimeoutMs: number;
  /** How long a kept-alive connection may sit idle between requests (above a load balancer's idle timeout, which closes first). */
  keepAliveTimeoutMs: number;
  /** Connections the process holds at once; more are closed as they arrive. */
  maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 1_024,
};

/** How often Node looks for requests past their timeouts; its default, 30 s, would let a timed-out body hang that much longer. */
const CHECK_EVERY_MS = 1_000;

/** The Fastify (and Node) server options that enforce the limits; `maxConnections` is set on the server once it exists. */
export function connectionOptions(
  limits: ConnectionLimits,
): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout' | 'clientErrorHandler'> & { http: ServerOptions } {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(CHECK_EVERY_MS, limits.headersTimeoutMs),
    },
    clientErrorHandler: answerClientError,
  };
}

/**
 * A request Node refuses before any route sees it (too slow, headers too
 * large, not HTTP) is still answered in the Error shape, then the
 * connection is closed.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiError('REQUEST_TIMEOUT', 'the request was not received in time; send it again, whole')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError('HEADERS_TOO_LARGE', 'the request headers are too large')
        : new ApiError('VALIDATION_ERROR', 'the request is not valid HTTP');
  const body = JSON.stringify(apiError.body());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${REASONS[apiError.status] ?? 'Client Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };
