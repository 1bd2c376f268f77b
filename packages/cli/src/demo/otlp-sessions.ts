import { OTLP_MESSAGES } from '@earshot/otlp';
import { DEMO_AGENTS, type DemoAgent } from './demo-agents';
import { Random } from './random';

/** One OTLP/HTTP export request of a demo session: part of its spans, encoded as an exporter encodes them. */
export interface OtlpExport {
  framework: 'livekit' | 'pipecat';
  traceId: string;
  spans: number;
  body: Uint8Array;
}

type Value = string | number | boolean;
interface DemoSpan {
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, Value>;
}

const seconds = (ms: number) => Math.round(ms) / 1000;

function attributeList(attributes: Record<string, Value>) {
  return Object.entries(attributes).map(([key, value]) => ({
    key,
    value: typeof value === 'string' ? { stringValue: value } : typeof value === 'boolean' ? { boolValue: value } : { doubleValue: value },
  }));
}

function encode(framework: OtlpExport['framework'], agent: string, traceId: string, spans: readonly DemoSpan[]): Uint8Array {
  const ns = (ms: number) => `${Math.round(ms)}000000`;
  const request = {
    resourceSpans: [
      {
        resource: { attributes: attributeList({ 'service.name': agent }) },
        scopeSpans: [
          {
            scope: { name: framework === 'livekit' ? 'livekit-agents' : 'pipecat' },
            spans: spans.map((s) => ({
              traceId: Buffer.from(traceId, 'hex'),
              spanId: Buffer.from(s.spanId, 'hex'),
              ...(s.parentSpanId ? { parentSpanId: Buffer.from(s.parentSpanId, 'hex') } : {}),
              name: s.name,
              startTimeUnixNano: ns(s.startMs),
              endTimeUnixNano: ns(s.endMs),
              attributes: attributeList(s.attributes),
            })),
          },
        ],
      },
    ],
  };
  return OTLP_MESSAGES.traceRequest.encode(OTLP_MESSAGES.traceRequest.fromObject(request)).finish();
}

/** One session's spans, LiveKit's or Pipecat's names and attributes, with log-normal stage latencies and the odd interruption and tool call. */
function sessionSpans(random: Random, framework: OtlpExport['framework'], agent: DemoAgent, startMs: number): DemoSpan[] {
  const id = () => random.hex(16);
  const root: DemoSpan = { spanId: id(), name: framework === 'livekit' ? 'agent_session' : 'conversation', startMs, endMs: startMs, attributes: {} };
  if (framework === 'pipecat') Object.assign(root.attributes, { 'conversation.id': random.hex(12), 'conversation.type': 'voice' });
  const spans = [root];
  let at = startMs + 1_000;
  const turns = random.int(3, 6);
  for (let n = 0; n < turns; n += 1) {
    const [said, answer] = agent.exchanges[n % agent.exchanges.length] ?? ['Hello?', 'Hi, how can I help?'];
    const eou = random.lognormal(180, 0.3);
    const stt = random.lognormal(150, 0.3);
    const ttft = random.lognormal(380, 0.35);
    const ttfb = random.lognormal(140, 0.3);
    const e2e = eou + ttft + ttfb + random.lognormal(60, 0.5);
    const interrupted = random.chance(0.1);
    const turn: DemoSpan = {
      spanId: id(),
      parentSpanId: root.spanId,
      name: framework === 'livekit' ? 'agent_turn' : 'turn',
      startMs: at,
      endMs: at + 3_500,
      attributes: {},
    };
    const child = (name: string, offset: number, length: number, attributes: Record<string, Value>): DemoSpan => ({
      spanId: id(),
      parentSpanId: turn.spanId,
      name,
      startMs: at + offset,
      endMs: at + offset + length,
      attributes,
    });
    if (framework === 'livekit') {
      Object.assign(turn.attributes, {
        'lk.pii.user_input': said,
        'lk.e2e_latency': seconds(e2e),
        'lk.end_of_turn_delay': seconds(eou),
        'lk.transcription_delay': seconds(stt),
        'lk.interrupted': interrupted,
      });
      spans.push(
        turn,
        child('llm_node', 10, 700, { 'lk.response.ttft': seconds(ttft), 'lk.pii.response.text': answer, 'gen_ai.request.model': agent.llmModel }),
        child('tts_node', 400, 2_500, { 'lk.response.ttfb': seconds(ttfb) }),
      );
    } else {
      Object.assign(turn.attributes, {
        'turn.number': n + 1,
        'turn.was_interrupted': interrupted,
        'turn.user_bot_latency_seconds': seconds(e2e),
        'turn.user_turn_seconds': seconds(eou),
      });
      spans.push(
        turn,
        child('stt', 0, 300, { 'metrics.ttfb': seconds(stt), transcript: said, is_final: true }),
        child('llm', 400, 700, { 'metrics.ttfb': seconds(ttft), output: answer, 'gen_ai.request.model': agent.llmModel }),
        child('tts', 1_200, 2_000, { 'metrics.ttfb': seconds(ttfb) }),
      );
    }
    const tool = agent.tools.length > 0 && random.chance(0.25) ? random.pick(agent.tools) : undefined;
    if (tool) {
      const failed = random.chance(tool.fails);
      const output = JSON.stringify(failed ? tool.error : tool.result);
      spans.push(
        framework === 'livekit'
          ? child('function_tool', 750, 300, {
              'lk.function_tool.name': tool.name,
              'lk.pii.function_tool.arguments': JSON.stringify(tool.arguments),
              'lk.pii.function_tool.output': output,
              'lk.function_tool.is_error': failed,
            })
          : child('llm_tool_call', 1_100, 300, {
              'tool.function_name': tool.name,
              'tool.arguments': JSON.stringify(tool.arguments),
              'tool.result': output,
              'tool.result_status': failed ? 'error' : 'completed',
            }),
      );
    }
    at += random.int(6_000, 12_000);
  }
  root.endMs = at;
  return spans;
}

/**
 * Seeded demo sessions as a LiveKit Agents or Pipecat process exports them:
 * each session's spans shuffled and sent in two requests, as a batch span
 * processor flushes them, ending within the last hour before `now`.
 */
export function generateOtlpExports({ seed, calls, now }: { seed: number; calls: number; now: number }): OtlpExport[] {
  const random = new Random(seed);
  return Array.from({ length: calls }, (_, i) => {
    const framework: OtlpExport['framework'] = i % 2 === 0 ? 'livekit' : 'pipecat';
    const agent = random.pick(DEMO_AGENTS);
    const traceId = random.hex(32);
    const spans = sessionSpans(random, framework, agent, now - random.int(5 * 60_000, 60 * 60_000));
    const shuffled = spans.map((span) => ({ span, order: random.float() })).sort((a, b) => a.order - b.order);
    const half = Math.ceil(shuffled.length / 2);
    return [shuffled.slice(0, half), shuffled.slice(half)].map((part) => ({
      framework,
      traceId,
      spans: part.length,
      body: encode(
        framework,
        agent.id,
        traceId,
        part.map((p) => p.span),
      ),
    }));
  }).flat();
}
