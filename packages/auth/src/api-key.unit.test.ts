import { describe, expect, it } from 'vitest';
import { hashApiKey, issueApiKey, parseApiKey } from './api-key';

describe('API keys', () => {
  it('issues live keys for production and test keys for staging, with a display prefix and a hash', () => {
    const live = issueApiKey('production');
    expect(live.key).toMatch(/^ear_live_[0-9A-Za-z]{38}$/);
    expect(live.displayPrefix).toBe(live.key.slice(0, 15));
    expect(live.hash.equals(hashApiKey(live.key))).toBe(true);
    expect(issueApiKey('staging').key).toMatch(/^ear_test_/);
  });

  it('parses a key it issued, naming its environment', () => {
    const key = issueApiKey('staging');
    expect(parseApiKey(key.key)).toEqual({ environment: 'staging', hash: key.hash });
  });

  it('refuses a key whose checksum does not match, before any lookup', () => {
    const { key } = issueApiKey('production');
    const flipped = key.slice(0, 12) + (key[12] === 'a' ? 'b' : 'a') + key.slice(13);
    expect(parseApiKey(flipped)).toBeUndefined();
    expect(parseApiKey(key.replace('ear_live_', 'ear_test_'))).toBeUndefined();
  });

  it('refuses anything not shaped like a key', () => {
    for (const text of ['', 'ear_live_', 'Bearer x', 'ear_prod_' + 'a'.repeat(38), `${issueApiKey('production').key}x`])
      expect(parseApiKey(text)).toBeUndefined();
  });
});
