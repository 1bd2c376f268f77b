import { TOPICS, type LogRecord, type OutgoingRecord } from '@earshot/log';
import { sampleDeadLetter, sampleDelivery, sampleEvent } from '@earshot/events/samples';
import { describe, expect, it } from 'vitest';
import { deadLettersTopic, deliveriesTopic, eventsTopic, readRecord } from './registry';

const stored = (record: OutgoingRecord): LogRecord => ({ ...record, headers: record.headers ?? {}, partition: 0, offset: '0', timestamp: 0 });

describe('the topic registry', () => {
  it('keys one call’s events by tenant and call, and reads them back', () => {
    const event = sampleEvent('call.started');
    const record = eventsTopic.record(event, { recordId: 'unused' });
    expect(record.topic).toBe(TOPICS.events);
    expect(record.key).toBe(`${event.tenant}:${event.call?.provider_call_id}`);
    expect(record.headers).toMatchObject({ type: 'call.started', tenant: event.tenant, 'idempotency-key': event.idempotency_key });
    expect(eventsTopic.read(stored(record))).toEqual(event);
  });

  it('keys an event about no call by the record it is about', () => {
    const event = sampleEvent('deployment.recorded');
    expect(eventsTopic.record(event, { recordId: 'plan:t1' }).key).toBe(`${event.tenant}:plan:t1`);
  });

  it('carries a delivery’s tenant and outcome in headers', () => {
    const delivery = sampleDelivery({ outcome: 'duplicate' });
    const record = deliveriesTopic.record(delivery);
    expect(record).toMatchObject({ topic: TOPICS.deliveries, key: delivery.tenant, headers: { tenant: delivery.tenant, outcome: 'duplicate' } });
    expect(deliveriesTopic.read(stored(record))).toEqual(delivery);
  });

  it('keys a dead letter of no known tenant by its id', () => {
    const deadLetter = sampleDeadLetter({ tenant: null, source: 'projector' });
    const record = deadLettersTopic.record(deadLetter);
    expect(record.key).toBe(deadLetter.id);
    expect(record.headers).toEqual({ 'dead-letter-id': deadLetter.id, source: 'projector' });
    expect(deadLettersTopic.read(stored(record))).toEqual(deadLetter);
  });

  it('names the key of a sealed dead letter’s body in the sealed-with header, as on events', () => {
    const deadLetter = sampleDeadLetter({ body: Buffer.from('sealed:v1:dk_tenant:AAAA'), sealed_with: 'dk_tenant' });
    const record = deadLettersTopic.record(deadLetter);
    expect(record.headers).toEqual({ tenant: deadLetter.tenant, 'dead-letter-id': deadLetter.id, source: 'gateway', 'sealed-with': 'dk_tenant' });
    expect(deadLettersTopic.read(stored(record))).toEqual(deadLetter);
  });

  it('refuses to read a record of another topic as its own', () => {
    const record = stored(deliveriesTopic.record(sampleDelivery()));
    expect(() => eventsTopic.read(record)).toThrow(/earshot.deliveries read as earshot.events/);
  });

  it('reads a record of any topic, told apart by topic', () => {
    const deadLetter = sampleDeadLetter();
    expect(readRecord(stored(deadLettersTopic.record(deadLetter)))).toEqual({ topic: TOPICS.deadLetters, payload: deadLetter });
    const delivery = sampleDelivery();
    expect(readRecord(stored(deliveriesTopic.record(delivery)))).toEqual({ topic: TOPICS.deliveries, payload: delivery });
  });
});
