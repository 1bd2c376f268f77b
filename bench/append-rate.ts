import { randomBytes } from 'node:crypto';
import { encodeEvent } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { createKafkaLog, TOPICS, type OutgoingRecord } from '@earshot/log';

/**
 * The EventLog port's own append rate on this broker, right now: the ceiling
 * a gateway's ingest rate is compared with in the same run. Batches of 100
 * Avro events, 32 appends at once, as bench/log.ts measures it.
 */
export async function portAppendRate(brokers: string[], events = 50_000): Promise<number> {
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
    // A first append opens the producer's connections outside the timing.
    await log.append(records.slice(0, 1));
    let next = 1;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < events) {
          const from = next;
          next = Math.min(events, next + 100);
          await log.append(records.slice(from, next));
        }
      }),
    );
    return Math.round((events - 1) / ((performance.now() - started) / 1000));
  } finally {
    await log.close();
  }
}
