import { randomBytes } from 'node:crypto';
import autocannon, { type Result } from 'autocannon';
import { signBody } from '@earshot/auth';
import { eventsOfSpans, OTLP_MESSAGES, readTraceRequest, spansOf, type Envelope } from '@earshot/otlp';
import { textOption, wholeNumber } from './args';
import { startGatewayProcess, type Credentials } from './gateway-process';
import { phaseFigures, phaseLine, startPhaseCpu } from './phase-cpu';
import type { Bench, BenchContext } from './run';

/**
 * OTLP/HTTP exports against a real gateway process (real broker, real
 * Postgres), beside the envelope ingest of the same events: each OTLP request
 * is a LiveKit-shaped five-turn session in protobuf (16 spans: the session,
 * and each turn's agent_turn, llm_node and tts_node), each ingest request the
 * 17 envelopes Earshot makes of such a session, as one signed JSON batch.
 * Every request is a new session (new trace and span ids), so nothing is a
 * duplicate. Each run prints the CPU an event cost the gateway, its Postgres,
 * the broker and the bench itself, which makes the load on the same cores.
 */
const TURNS = 5;

function options(args: string[]): { seconds: number; connections: number; profileDir: string } {
  return {
    seconds: wholeNumber(args, 'seconds', 10),
    connections: wholeNumber(args, 'connections', 16),
    // Where the gateway writes a V8 CPU profile when it stops, as bench ingest's --cpu-prof.
    profileDir: textOption(args, 'cpu-prof', ''),
  };
}

const attribute = (key: string, value: number | boolean) => ({ key, value: typeof value === 'boolean' ? { boolValue: value } : { doubleValue: value } });

/** A LiveKit-shaped session as an exporter encodes it. */
function sessionRequest(): Buffer {
  const traceId = randomBytes(16);
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const span = (name: string, parent: Buffer | null, offsetMs: number, lengthMs: number, attributes: ReturnType<typeof attribute>[]) => ({
    traceId,
    spanId: randomBytes(8),
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    startTimeUnixNano: String(nowNs + BigInt(offsetMs) * 1_000_000n),
    endTimeUnixNano: String(nowNs + BigInt(offsetMs + lengthMs) * 1_000_000n),
    attributes,
  });
  const session = span('agent_session', null, 0, 60_000, []);
  const spans = [session];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const reply = span('agent_turn', session.spanId, turn * 8_000, 3_000, [
      attribute('lk.e2e_latency', 0.9 + turn / 100),
      attribute('lk.end_of_turn_delay', 0.2),
      attribute('lk.transcription_delay', 0.15),
      attribute('lk.interrupted', false),
    ]);
    spans.push(
      reply,
      span('llm_node', reply.spanId, turn * 8_000 + 10, 800, [attribute('lk.response.ttft', 0.35)]),
      span('tts_node', reply.spanId, turn * 8_000 + 400, 2_000, [attribute('lk.response.ttfb', 0.12)]),
    );
  }
  const request = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'bench-agent' } }] },
        scopeSpans: [{ scope: { name: 'livekit-agents' }, spans }],
      },
    ],
  };
  return Buffer.from(OTLP_MESSAGES.traceRequest.encode(OTLP_MESSAGES.traceRequest.fromObject(request)).finish());
}

/** The envelopes Earshot makes of a session: what the ingest run sends, so both runs append the same events. */
function envelopesOf(body: Buffer): Envelope[] {
  const read = readTraceRequest({ bytes: body, encoding: 'protobuf', contentEncoding: undefined });
  if (!read.ok) throw new Error(read.message);
  return eventsOfSpans(spansOf(read.request)).flatMap((mapped) => mapped.envelopes);
}

function otlpRequest(credentials: Credentials): autocannon.Request {
  return {
    method: 'POST',
    path: '/v1/traces',
    headers: { authorization: `Bearer ${credentials.apiKey}`, 'content-type': 'application/x-protobuf' },
    body: sessionRequest(),
  };
}

function ingestRequest(credentials: Credentials): autocannon.Request {
  const body = JSON.stringify(envelopesOf(sessionRequest()));
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    method: 'POST',
    path: '/api/v1/webhooks/ingest',
    headers: {
      authorization: `Bearer ${credentials.apiKey}`,
      'content-type': 'application/json',
      'x-earshot-timestamp': timestamp,
      'x-earshot-signature': signBody(credentials.webhookSecret, timestamp, Buffer.from(body)),
      'x-earshot-provider': 'livekit',
    },
    body,
  };
}

async function load(
  context: BenchContext,
  origin: string,
  label: string,
  seconds: number,
  connections: number,
  next: () => autocannon.Request,
): Promise<Result> {
  let second = 0;
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      { url: origin, connections, duration: seconds, requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }] },
      (error: Error | null, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('tick', () => context.progress(`${label}: ${++second} of ${seconds} s`));
  });
  context.report(
    `${label}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
  return result;
}

const bench: Bench = async (context) => {
  const { seconds, connections, profileDir } = options(context.args);
  const gateway = await startGatewayProcess(context, 'otlp', { profileDir });
  try {
    const credentials = await gateway.createTenant();
    const spansPerRequest = 1 + TURNS * 3;
    const eventsPerRequest = envelopesOf(sessionRequest()).length;
    await load(context, gateway.gateways.url, 'warm-up', 3, connections, () => otlpRequest(credentials));
    await gateway.analyze();
    // Each run with what every process on the machine spent on it, per event, the load generator's included.
    const measured = async (label: string, next: () => autocannon.Request) => {
      const phase = await startPhaseCpu(gateway.processes);
      const result = await load(context, gateway.gateways.url, label, seconds, connections, next);
      const cpu = await phase(result.requests.total * eventsPerRequest);
      context.report(`${label}: ${phaseLine(cpu, 'event')}`);
      return { result, cpu };
    };
    const { result: otlp, cpu: otlpCpu } = await measured(`OTLP/HTTP protobuf (${spansPerRequest} spans a request)`, () => otlpRequest(credentials));
    const { result: ingest, cpu: ingestCpu } = await measured(`envelope ingest of the same events (${eventsPerRequest} a request)`, () =>
      ingestRequest(credentials),
    );
    const spansPerSecond = Math.round(otlp.requests.average * spansPerRequest);
    const otlpEvents = Math.round(otlp.requests.average * eventsPerRequest);
    const ingestEvents = Math.round(ingest.requests.average * eventsPerRequest);
    context.report(`OTLP ${spansPerSecond} spans/s = ${otlpEvents} events/s; envelope ingest ${ingestEvents} events/s`);
    return {
      connections,
      seconds,
      spans_per_request: spansPerRequest,
      events_per_request: eventsPerRequest,
      otlp_rps: Math.round(otlp.requests.average),
      otlp_spans_per_s: spansPerSecond,
      otlp_events_per_s: otlpEvents,
      otlp_p50_ms: otlp.latency.p50,
      otlp_p99_ms: otlp.latency.p99,
      ingest_rps: Math.round(ingest.requests.average),
      ingest_events_per_s: ingestEvents,
      ingest_p50_ms: ingest.latency.p50,
      ingest_p99_ms: ingest.latency.p99,
      otlp_over_ingest: Number((otlpEvents / Math.max(1, ingestEvents)).toFixed(3)),
      ...phaseFigures('otlp_', 'event', otlpCpu),
      ...phaseFigures('ingest_', 'event', ingestCpu),
      non_2xx: otlp.non2xx + ingest.non2xx,
      errors: otlp.errors + ingest.errors,
    };
  } finally {
    await gateway.stop();
  }
};

export default bench;
