import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@earshot/testing';
import { exclusively, openDatabase, type ConnectionPool } from '../src';

describe('work that runs in one process at a time', () => {
  let db: ConnectionPool;
  let other: ConnectionPool;
  let close: () => Promise<void>;

  beforeAll(async () => {
    let url: string;
    ({ db, url, close } = await openTestDatabase('exclusive'));
    // Another process: its own pool, its own sessions.
    other = openDatabase({ url, poolSize: 2, applicationName: 'test-exclusive-other' });
  });
  afterAll(async () => {
    await other.dispose();
    await close();
  });

  it('runs the work where the name is free, and not where another process is running it', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = exclusively(db, 'round', async () => {
      await held;
      return 'first';
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await exclusively(other, 'round', async () => 'second')).toBeUndefined();
    expect(await exclusively(other, 'another round', async () => 'free')).toBe('free');
    release();
    expect(await first).toBe('first');
    expect(await exclusively(other, 'round', async () => 'second')).toBe('second');
  });

  it('frees the name when the work fails', async () => {
    await expect(exclusively(db, 'failing', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await exclusively(other, 'failing', async () => 'after')).toBe('after');
  });
});
