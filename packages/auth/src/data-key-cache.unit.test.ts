import { describe, expect, it } from 'vitest';
import type { DataKey } from '@earshot/events';
import { DataKeyCache } from './data-key-cache';

/** A key store that counts what it is asked (calls' keys and tenants' apart) and can be told to fail or to have erased a call. */
function store() {
  const asked: string[][] = [];
  const tenantsAsked: string[] = [];
  const tenantKeysGiven: (DataKey | undefined)[] = [];
  const erased = new Set<string>();
  let failing = false;
  const keyOf = (id: string): DataKey => ({ id: `dk_${id}`, key: Buffer.alloc(32, id.length) });
  return {
    asked,
    tenantsAsked,
    tenantKeysGiven,
    erase: (callId: string) => erased.add(callId),
    fail: (on: boolean) => (failing = on),
    forTenant: (tenantId: string) => {
      tenantsAsked.push(tenantId);
      return Promise.resolve(keyOf(tenantId));
    },
    forCalls: async (tenantId: string, callIds: readonly string[], tenantKey?: DataKey) => {
      asked.push([tenantId, ...callIds]);
      tenantKeysGiven.push(tenantKey);
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
    expect(keys.asked).toHaveLength(2);
    expect(keys.asked).toEqual(
      expect.arrayContaining([
        ['t', 'a'],
        ['t', 'c'],
      ]),
    );
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
    const cache = new DataKeyCache(keys, { maxEntries: 3 });
    await cache.forCalls('t', ['a']);
    await cache.forCalls('t', ['b']);
    // Held: the tenant's key, a, b; c pushes the oldest out, the tenant's key.
    await cache.forCalls('t', ['c']);
    await cache.forCalls('t', ['b', 'c']);
    expect(keys.asked).toHaveLength(3);
    expect(keys.tenantsAsked).toHaveLength(1);
    // The tenant's key comes back and pushes a out, then d pushes b out.
    await cache.forCalls('t', ['d']);
    expect(keys.tenantsAsked).toHaveLength(2);
    await cache.forCalls('t', ['a']);
    expect(keys.asked).toHaveLength(5);
  });

  it('holds the tenant key too', async () => {
    const keys = store();
    const cache = new DataKeyCache(keys);
    expect((await cache.forTenant('t')).id).toBe('dk_t');
    expect((await cache.forTenant('t')).id).toBe('dk_t');
    expect(keys.tenantsAsked).toEqual(['t']);
  });

  it("hands its tenant's key to the store with calls it has not seen, asking for the tenant's key once", async () => {
    const keys = store();
    const cache = new DataKeyCache(keys);
    await cache.forCalls('t', ['a']);
    await cache.forCalls('t', ['b']);
    await cache.forCalls('t2', ['a']);
    expect(keys.tenantsAsked).toEqual(['t', 't2']);
    expect(keys.tenantKeysGiven.map((key) => key?.id)).toEqual(['dk_t', 'dk_t', 'dk_t2']);
  });
});
