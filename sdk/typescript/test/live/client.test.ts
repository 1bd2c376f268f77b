import { describe, expect, it } from 'vitest';
import { Earshot } from '../../src/index.js';
import { env } from './target.js';

describe('the client', () => {
  it('[client-from-environment] reads the key, the base URL and the secret from the environment; the service root means the same', async () => {
    const fromEnv = new Earshot();
    expect(fromEnv.baseUrl).toBe(env.baseUrl.replace(/\/$/, ''));
    expect((await fromEnv.calls.list({ limit: 1 }).firstPage()).items).toEqual(expect.any(Array));
    const root = new Earshot({ baseUrl: env.baseUrl.replace(/\/api\/v1\/?$/, '') });
    expect(root.baseUrl).toBe(fromEnv.baseUrl);
    expect(await root.health.retrieve()).toMatchObject({ ok: true });
    expect((await root.realtime.retrieve()).concurrentCalls).toBeGreaterThanOrEqual(0);

    const saved = process.env.EARSHOT_API_KEY;
    delete process.env.EARSHOT_API_KEY;
    try {
      expect(() => new Earshot()).toThrow(/EARSHOT_API_KEY/);
    } finally {
      process.env.EARSHOT_API_KEY = saved;
    }
  });
});
