import { randomBytes } from 'node:crypto';
import { EVENT_TYPES, type StoredEvent } from '@earshot/contracts';
import { decodeEvent, encodeEvent, schemaRegistry, SINGLE_OBJECT_MARKER, type DataKey, type KeyLookup } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import type { Bench } from './run';
import { option } from './args';

/**
 * `npm run bench -- codec [--rounds N]`: the event codec the gateway encodes
 * with and the projector decodes with, on a sample of every event type, in
 * the clear and sealed, beside avsc alone on the same Avro values (the floor
 * the codec's own work sits on). Each pass over the samples is one call's
 * events, sealed with a key of its own. Rounds alternate the six measures, and
 * each figure is the best of its rounds: on a shared machine a round only
 * ever runs slower than the code does, never faster.
 */
export const withoutInfrastructure = true;

/** The Avro body of a single-object message: after the marker and the 8-byte fingerprint. */
const BODY_AT = SINGLE_OBJECT_MARKER.length + 8;
const PER_ROUND = 300;

const best = (values: readonly number[]) => Math.min(...values);

interface Call {
  key: DataKey;
  keys: KeyLookup;
}

/** Microseconds per event of one pass over every sample per call, as one call's events. */
function timed<T>(items: readonly T[], calls: readonly Call[], work: (item: T, call: Call) => unknown): number {
  const started = process.hrtime.bigint();
  for (const call of calls) for (const item of items) work(item, call);
  return Number(process.hrtime.bigint() - started) / 1_000 / calls.length / items.length;
}

const bench: Bench = async (context) => {
  const rounds = option(context.args, 'rounds', 15);
  const registry = schemaRegistry();
  const key: DataKey = { id: 'bench-key', key: randomBytes(32) };
  // A key of each call's own, as the gateway's cache and the projector's lookup hand one out: its first event seals and opens the call block.
  const newCalls = () =>
    Array.from({ length: PER_ROUND }, (): Call => {
      const bytes = Buffer.from(key.key);
      return { key: { ...key }, keys: (id: string) => (id === key.id ? bytes : undefined) };
    });
  const samples = EVENT_TYPES.map((type) => {
    const event: StoredEvent = sampleEvent(type);
    const message = encodeEvent(event);
    const writer = registry.current(type);
    if (writer === undefined) throw new Error(`no current schema for ${type}`);
    const body = message.subarray(BODY_AT);
    return { event, message, sealed: encodeEvent(event, key), type: writer.type, body, avro: writer.type.fromBuffer(body) as unknown };
  });
  const figures = {
    encode: [] as number[],
    decode: [] as number[],
    avscEncode: [] as number[],
    avscDecode: [] as number[],
    sealedEncode: [] as number[],
    sealedDecode: [] as number[],
  };
  for (let round = 1; round <= rounds; round++) {
    context.progress(`round ${round} of ${rounds}`);
    const calls = newCalls();
    figures.encode.push(timed(samples, calls, (s) => encodeEvent(s.event)));
    figures.avscEncode.push(timed(samples, calls, (s) => s.type.toBuffer(s.avro)));
    figures.decode.push(timed(samples, calls, (s) => decodeEvent(s.message)));
    figures.avscDecode.push(timed(samples, calls, (s) => s.type.fromBuffer(s.body)));
    figures.sealedEncode.push(timed(samples, calls, (s, call) => encodeEvent(s.event, call.key)));
    figures.sealedDecode.push(timed(samples, calls, (s, call) => decodeEvent(s.sealed, call.keys)));
  }
  const us = (values: number[]) => Math.round(best(values) * 100) / 100;
  const result = {
    event_types: samples.length,
    rounds,
    encode_us_per_event: us(figures.encode),
    avsc_encode_us_per_event: us(figures.avscEncode),
    encode_to_avsc: Math.round((best(figures.encode) / best(figures.avscEncode)) * 100) / 100,
    decode_us_per_event: us(figures.decode),
    avsc_decode_us_per_event: us(figures.avscDecode),
    decode_to_avsc: Math.round((best(figures.decode) / best(figures.avscDecode)) * 100) / 100,
    sealed_encode_us_per_event: us(figures.sealedEncode),
    sealed_decode_us_per_event: us(figures.sealedDecode),
  };
  context.report(
    `encode ${result.encode_us_per_event} µs (avsc alone ${result.avsc_encode_us_per_event}), decode ${result.decode_us_per_event} µs (avsc alone ${result.avsc_decode_us_per_event}), sealed ${result.sealed_encode_us_per_event} / ${result.sealed_decode_us_per_event} µs`,
  );
  return result;
};

export default bench;
