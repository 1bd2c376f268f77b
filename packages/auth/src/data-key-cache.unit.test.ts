import { describe, expect, it } from 'vitest';
import type { DataKey } from '@earshot/events';
import { DataKeyCache } from './data-key-cache';

/** A key store that counts what it is asked and can be told to fail or to have erased a call. */
function store() {
  const asked: string[][] = [];
  const erased = new Set<string>();
  let failing = false;
  const keyOf = (id: string): DataKey => ({ id: `dk_${id}`, key: Buffer.alloc(32, id.length) });
  return {
    asked,
    erase: (callId: string) => erased.add(callId),
    fail: (on: boolean) => (failing = on),
    forTenant: (tenantId: string) => {
      asked.push([tenantId]);
      return Promise.resolve(keyOf(tenantId));
    },
    forCalls: async (tenantId: string, callIds: readonly string[]) => {
      asked.push([tenantId, ...callIds]);
      await Promise.resolve();
      if (failing) throw new Error('the key store is down');
      return new Map(callIds.map((id) => [id, keyOf(erased.has(id) ? `${id}-new` : id)]));
    },
  };
}

describe('the data key cache in front of intake', () => {
  it('asks the store once per call within its TTL, and again after it', async () => {
    const keys = store();
    let now = 0;
    const cache = new DataKeyCache(keys, { ttlMs: 5_000, now: () => now });
    expect((await cache.forCalls('t', ['a', 'b', 'a'])).get('a')?.id).toBe('dk_a');
    expect([...(await cache.forCalls('t', ['a', 'b'])).keys()]).toEqual(['a', 'b']);
    expect(keys.asked).toEqual([['t', 'a', 'b']]);
    keys.erase('a');
    now = 5_001;
    expect((await cache.forCalls('t', ['a'])).get('a')?.id).toBe('dk_a-new');
    expect(keys.asked).toHaveLength(2);
  });

  it('shares one lookup between requests that miss the same key at once', async () => {
    const keys = store();
    const cache = new DataKeyCache(keys);
    const [first, second] = await Promise.all([cache.forCalls('t', ['a']), cache.forCalls('t', ['a', 'c'])]);
    expect(first.get('a')).toBe(second.get('a'));
    expect(keys.asked).toEqual([
      ['t', 'a'],
      ['t', 'c'],
    ]);
  });

  it('keeps calls of different tenants apart', async () => {
    const keys = store();
    const cache = new DataKeyCache(keys);
    await cache.forCalls('t1', ['a']);
    await cache.forCalls('t2', ['a']);
    expect(keys.asked).toEqual([
      ['t1', 'a'],
      ['t2', 'a'],
    ]);
  });

  it('forgets a failed lookup, so the next request asks again', async () => {
    const keys = store();
    const cache = new DataKeyCache(keys);
    keys.fail(true);
    await expect(cache.forCalls('t', ['a'])).rejects.toThrow('the key store is down');
    keys.fail(false);
    expect((await cache.forCalls('t', ['a'])).get('a')?.id).toBe('dk_a');
    expect(keys.asked).toHaveLength(2);
  });

  it('holds at most maxEntries keys, dropping the oldest', async () => {
    const keys = store();
    const cache = new DataKeyCache(keys, { maxEntries: 2 });
    await cache.forCalls('t', ['a']);
    await cache.forCalls('t', ['b']);
    await cache.forCalls('t', ['c']);
    await cache.forCalls('t', ['b', 'c']);
    expect(keys.asked).toHaveLength(3);
    await cache.forCalls('t', ['a']);
    expect(keys.asked).toHaveLength(4);
  });

  it('holds the tenant key too', async () => {
    const keys = store();
    const cache = new DataKeyCache(keys);
    expect((await cache.forTenant('t')).id).toBe('dk_t');
    expect((await cache.forTenant('t')).id).toBe('dk_t');
    expect(keys.asked).toEqual([['t']]);
  });
});
