import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signIngest } from '../src/index.js';
import { ingestHeaders } from '../src/signing.js';

const { vectors } = JSON.parse(readFileSync(new URL('../../signing-vectors.json', import.meta.url), 'utf8')) as {
  vectors: { secret: string; timestamp: string; body: string; signature: string }[];
};

describe('the ingest signature', () => {
  it('[signing-vectors] equals every vector of sdk/signing-vectors.json', async () => {
    expect(vectors.length).toBeGreaterThanOrEqual(4);
    for (const vector of vectors) expect(await signIngest(vector.secret, vector.timestamp, vector.body)).toBe(vector.signature);
  });

  it('signs over the timestamp of the moment, in Unix seconds, and names the provider', async () => {
    const vector = vectors[0] as (typeof vectors)[number];
    const headers = await ingestHeaders(vector.secret, vector.body, 'vapi', Number(vector.timestamp) * 1_000 + 999);
    expect(headers).toEqual({ 'x-earshot-timestamp': vector.timestamp, 'x-earshot-signature': vector.signature, 'x-earshot-provider': 'vapi' });
  });
});
