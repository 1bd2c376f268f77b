import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeScenarios } from './scenarios';
import { embeddedTopology } from './topologies';

describe('end to end: embedded `earshot serve` (all), no Kafka, no DATABASE_URL', () => {
  let embedded: Awaited<ReturnType<typeof embeddedTopology>>;
  describeScenarios(async () => {
    embedded = await embeddedTopology();
    return embedded;
  });

  it('kept the demonstration credentials (mode 0600) and the operator token in the data directory, printed the same key at every start, and the key reads', async () => {
    const demo = JSON.parse(readFileSync(join(embedded.dataDir, 'demo.json'), 'utf8')) as { apiKey: string; webhookSecret: string };
    expect(statSync(join(embedded.dataDir, 'demo.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(embedded.dataDir, 'admin.token')).mode & 0o777).toBe(0o600);
    expect(demo.apiKey).toMatch(/^ear_live_/);
    // The scenarios stopped and started the process once: both starts printed the same credentials.
    const output = embedded.output();
    expect(output.split(`Demo API key     ${demo.apiKey}`)).toHaveLength(3);
    expect(output.split(`Webhook secret   ${demo.webhookSecret}`)).toHaveLength(3);
    expect(output).toContain('/api/v1');
    expect(output).toContain('/developers/explorer');
    const response = await fetch(new URL('/api/v1/calls', embedded.url('query')), { headers: { authorization: `Bearer ${demo.apiKey}` } });
    expect(response.status).toBe(200);
  });
});
