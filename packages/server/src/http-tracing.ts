import type { FastifyInstance, FastifyRequest } from 'fastify';
import { context, SpanKind, SpanStatusCode, trace, traceContextOf, tracer, type Span } from '@earshot/telemetry';

/**
 * One server span per request, continuing the caller's `traceparent`, named
 * by route template as OpenTelemetry's HTTP conventions say. The rest of the
 * request runs in its context, so the appends and queries it makes are its
 * children.
 */
export function traceRequests(app: FastifyInstance): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = tracer().startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0], ...(route ? { 'http.route': route } : {}) },
      },
      traceContextOf(request.headers),
    );
    spans.set(request, span);
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}
