import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventKeyOf } from './tenant-writes';

const hashOf = (body: string) => createHash('sha256').update(body).digest();

describe('the event key of a write under an Idempotency-Key', () => {
  it('keeps a short client key readable beside the body hash', () => {
    expect(eventKeyOf('incident.created', 'retry-7', hashOf('{}'))).toBe(`api:incident.created:retry-7:${hashOf('{}').toString('hex').slice(0, 16)}`);
  });

  it('fits the event whatever the header length allows (a 255-character key once made a 500)', () => {
    for (const length of [200, 234, 240, 255]) {
      const key = 'k'.repeat(length);
      // The stored event's idempotency_key holds at most 255 characters.
      expect(eventKeyOf('deployment.recorded', key, hashOf('{}')).length, `key of ${length}`).toBeLessThanOrEqual(255);
    }
  });

  it('tells long keys and bodies apart', () => {
    const long = 'k'.repeat(255);
    expect(eventKeyOf('incident.created', long, hashOf('a'))).not.toBe(eventKeyOf('incident.created', long, hashOf('b')));
    expect(eventKeyOf('incident.created', long, hashOf('a'))).not.toBe(eventKeyOf('incident.created', `${long.slice(1)}j`, hashOf('a')));
  });
});
