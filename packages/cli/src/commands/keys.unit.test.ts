import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '@earshot/contracts';
import { durationArgument } from '../cli/arguments';
import { keyTable } from './keys';

const record: ApiKeyRecord = {
  id: '6f1c2a7e-0000-4000-8000-000000000001',
  name: 'ci',
  prefix: 'ear_live_Ab12Cd',
  scopes: ['calls:read', 'keys:read'],
  environment: 'production',
  ipAllowlist: [],
  lastUsedAt: null,
  usage24h: 12,
  status: 'rotating',
  workspace: 'voice-lab',
  expiresAt: null,
  previousSecretValidUntil: '2026-03-03T10:00:00.000Z',
  createdAt: '2026-03-02T10:00:00.000Z',
  createdBy: { kind: 'operator', keyId: null },
  revokedAt: null,
};

describe('earshot keys', () => {
  it('reads durations such as 90s, 15m, 24h and 7d, and refuses anything else', () => {
    expect(durationArgument('90s')).toBe(90_000);
    expect(durationArgument('24h')).toBe(86_400_000);
    expect(durationArgument('7d')).toBe(604_800_000);
    expect(() => durationArgument('soon')).toThrow('give a duration');
    expect(() => durationArgument('-5m')).toThrow('give a duration');
  });

  it('shows every attribute of the record in the table, an empty IP allowlist as allowing every address, never the key', () => {
    const table = keyTable([record]);
    for (const text of [
      'ci',
      'ear_live_Ab12Cd…',
      'calls:read',
      'keys:read',
      'production',
      'any',
      'never',
      '12',
      'rotating until 2026-03-03T10:00:00.000Z',
      'voice-lab',
    ])
      expect(table).toContain(text);
    expect(keyTable([{ ...record, ipAllowlist: ['10.0.0.0/8'], status: 'active' }])).toContain('10.0.0.0/8');
  });
});
