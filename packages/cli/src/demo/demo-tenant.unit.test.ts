import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '@earshot/auth';
import { loadConfig } from '@earshot/config';
import { writeDemoCredentials } from './demo-credentials';
import { DEMO_TENANT_ID, demoCredentials } from './demo-tenant';

describe('demonstration credentials', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-demo-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = (env: Record<string, string> = {}) => loadConfig({ EARSHOT_DATA_DIR: dataDir, ...env });

  it('are new the first time, then the kept ones', () => {
    const first = demoCredentials(config());
    expect(first).toMatchObject({ tenantId: DEMO_TENANT_ID, apiKey: expect.stringMatching(/^ear_live_/), webhookSecret: expect.stringMatching(/^whsec_/) });
    writeDemoCredentials(dataDir, first);
    expect(demoCredentials(config())).toEqual(first);
  });

  it('are those of EARSHOT_DEMO_API_KEY and EARSHOT_DEMO_WEBHOOK_SECRET when set', () => {
    const key = issueApiKey('staging').key;
    expect(demoCredentials(config({ EARSHOT_DEMO_API_KEY: key, EARSHOT_DEMO_WEBHOOK_SECRET: 'whsec_fixed_for_the_workshop' }))).toMatchObject({
      apiKey: key,
      webhookSecret: 'whsec_fixed_for_the_workshop',
    });
  });

  it('refuse a key that fails its checksum, naming the variable', () => {
    const key = issueApiKey('production').key;
    const typo = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    expect(() => demoCredentials(config({ EARSHOT_DEMO_API_KEY: typo }))).toThrow(/^EARSHOT_DEMO_API_KEY: not a valid key/);
    expect(() => demoCredentials(config({ EARSHOT_DEMO_API_KEY: 'demo' }))).toThrow(/^EARSHOT_DEMO_API_KEY/);
  });
});
