import { randomBytes } from 'node:crypto';
import { encodeEvent } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { createKafkaLog, TOPICS, type EventLog, type OutgoingRecord } from '@earshot/log';

/** The port's append rate: the median of its timed passes, and each pass, to show how much it swung. */
export interface AppendRate {
  median: number;
  passes: number[];
}

/**
 * The EventLog port's own append rate on this broker, right now: the ceiling
 * a gateway's ingest rate is compared with in the same run. Batches of 100
 * Avro events, 32 appends at once, as bench/log.ts measures it. A single
 * pass of 50,000 events took a fifth of a second and swung threefold between
 * runs here, and each pass ran faster than the one before: an untimed pass
 * first (the topic's leaders, the producer's connections, both sides' JIT),
 * then the median of three, each of them at least two seconds long.
 */
export async function portAppendRate(brokers: string[], events = 50_000): Promise<AppendRate> {
  const records: OutgoingRecord[] = Array.from({ length: events }, (_, i) => {
    const event = sampleEvent('agent.response.generated', {
      idempotency_key: `append-${i}`,
      tenant: '7b0c1f4e-3d2a-4c8b-9e6f-1a2b3c4d5e6f',
      call: { provider_call_id: `call-${i % 500}`, agent_id: 'support-agent' },
    });
    return { topic: TOPICS.events, key: `${event.tenant}:${event.call?.provider_call_id}`, value: encodeEvent(event), headers: { 'earshot-type': event.type } };
  });
  const log = await createKafkaLog({ brokers, clientId: 'bench-append-rate', namespace: `bench-append-${randomBytes(4).toString('hex')}.` });
  try {
    await appendFor(log, records, PASS_MS);
    const rates: number[] = [];
    for (let pass = 0; pass < PASSES; pass++) rates.push(await appendFor(log, records, PASS_MS));
    return { median: [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)] ?? 0, passes: rates };
  } finally {
    await log.close();
  }
}

const PASSES = 3;
const PASS_MS = 2_000;

/** Appends the records, 100 at a time and 32 appends at once, over and over until `ms` have passed; answers events/s. */
async function appendFor(log: EventLog, records: readonly OutgoingRecord[], ms: number): Promise<number> {
  let next = 0;
  let appended = 0;
  const started = performance.now();
  const more = () => {
    if (next < records.length) return true;
    if (performance.now() - started >= ms) return false;
    next = 0;
    return true;
  };
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (more()) {
        const batch = records.slice(next, next + 100);
        next += batch.length;
        await log.append(batch);
        appended += batch.length;
      }
    }),
  );
  return Math.round(appended / ((performance.now() - started) / 1000));
}
