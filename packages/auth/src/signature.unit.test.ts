import { readFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from './signature';

const secret = 'whsec_current';
const previous = 'whsec_previous';
const now = new Date('2026-03-02T10:00:00Z');
const seconds = Math.floor(now.getTime() / 1000);
const body = Buffer.from('{"type":"call.started"}');

const request = (timestamp: number, signedWith = secret, signedBody: Buffer = body) => ({
  timestamp: String(timestamp),
  signature: signBody(signedWith, String(timestamp), signedBody),
  body,
});

describe('webhook signatures', () => {
  it('is lowercase hex HMAC-SHA256 over timestamp, a dot and the raw body', () => {
    const expected = createHmac('sha256', secret).update(`${seconds}.{"type":"call.started"}`).digest('hex');
    expect(signBody(secret, String(seconds), body)).toBe(expected);
  });

  it('accepts 299 s and 300 s off either way and refuses 301 s', () => {
    for (const skew of [-300, -299, 0, 299, 300]) expect(verifySignature(request(seconds + skew), [secret], now)).toEqual({ ok: true });
    for (const skew of [-301, 301]) expect(verifySignature(request(seconds + skew), [secret], now)).toEqual({ ok: false, reason: 'stale' });
  });

  it('refuses a changed body, a wrong secret, and missing or malformed headers', () => {
    expect(verifySignature(request(seconds, secret, Buffer.from('{"type":"call.ended"}')), [secret], now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature(request(seconds, 'whsec_other'), [secret], now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature({ timestamp: undefined, signature: 'ab', body }, [secret], now)).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignature({ ...request(seconds), timestamp: '2026-03-02T10:00:00Z' }, [secret], now)).toEqual({ ok: false, reason: 'timestamp' });
    expect(verifySignature({ ...request(seconds), signature: request(seconds).signature.toUpperCase() }, [secret], now)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('verifies with either secret during a rotation', () => {
    expect(verifySignature(request(seconds, previous), [secret, previous], now)).toEqual({ ok: true });
    expect(verifySignature(request(seconds, secret), [secret, previous], now)).toEqual({ ok: true });
    expect(verifySignature(request(seconds, previous), [secret], now)).toEqual({ ok: false, reason: 'mismatch' });
  });
});

describe('the SDKs’ signing vectors (sdk/signing-vectors.json)', () => {
  const { vectors } = JSON.parse(readFileSync(new URL('../../../sdk/signing-vectors.json', import.meta.url), 'utf8')) as {
    vectors: { secret: string; timestamp: string; body: string; signature: string }[];
  };

  it.each(vectors)('signs $body at $timestamp as the vector says, and verifies it', ({ secret, timestamp, body, signature }) => {
    expect(signBody(secret, timestamp, Buffer.from(body, 'utf8'))).toBe(signature);
    expect(verifySignature({ timestamp, signature, body: Buffer.from(body, 'utf8') }, [secret], new Date(Number(timestamp) * 1000))).toEqual({ ok: true });
  });
});
