import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '@earshot/contracts';
import { cleanEnv, startEarshot, type EarshotProcess } from './e2e/earshot-process';
import { openDatabase } from '@earshot/db';
import { createTestDatabase, ADMIN_TOKEN, type TenantCredentials, kafkaBrokers, uniqueNamespace, scanForPlaintext } from '@earshot/testing';

const earshot = new URL('../packages/cli/bin/earshot.js', import.meta.url).pathname;
const TARGETS = 'gateway,query,keys';

/**
 * The key lifecycle through the CLI against one real `earshot serve`
 * process, with its effect checked in another: what one process revokes,
 * rotates out or suspends, the other refuses within a second, cache and all.
 */
describe('keys and the webhook secret across two processes, through the CLI', () => {
  let first: EarshotProcess;
  let second: EarshotProcess;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let databaseUrl: string;
  let tenant: TenantCredentials;
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-keys-'));

  beforeAll(async () => {
    const database = await createTestDatabase('keys-two-processes');
    drop = database.drop;
    databaseUrl = database.url;
    env = cleanEnv({
      DATABASE_URL: database.url,
      KAFKA_BROKERS: kafkaBrokers().join(','),
      EARSHOT_LOG_NAMESPACE: uniqueNamespace('keys-two-processes'),
      EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
      EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
      EARSHOT_DATA_DIR: dataDir,
    });
    first = await startEarshot(TARGETS, env);
    second = await startEarshot(TARGETS, env);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** Every key and secret the CLI showed, for the scan of the database. */
  const shown: string[] = [];
  /** Runs the real `earshot` command against the first process. */
  const cli = (args: string[], apiKey?: string): string => {
    const run = spawnSync(process.execPath, [earshot, ...args, '--url', first.url], {
      env: { ...env, ...(apiKey ? { EARSHOT_API_KEY: apiKey } : {}) },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`earshot ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
    shown.push(...(run.stdout.match(/ear_(live|test)_[0-9A-Za-z]{38}|whsec_[\w+/-]{43}=?/g) ?? []));
    return run.stdout;
  };
  const json = <T>(args: string[], apiKey?: string): T => JSON.parse(cli([...args, '--json'], apiKey)) as T;
  /** Lists print one JSON object per line with --json. */
  const ndjson = <T>(args: string[], apiKey?: string): T[] =>
    cli([...args, '--json'], apiKey)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as T);
  const keysOnSecond = (apiKey: string) => fetch(`${second.url}/api/v1/keys`, { headers: { authorization: `Bearer ${apiKey}` } });

  it('creates a tenant, then a key with the CLI; the key works on the other process', async () => {
    tenant = json<TenantCredentials>(['tenant', 'create', '--name', 'Acme']);
    const created = json<{ key: ApiKeyRecord; secret: string }>(
      ['keys', 'create', '--name', 'ci', '--scopes', 'keys:read,calls:read', '--workspace', 'voice-lab'],
      tenant.apiKey,
    );
    expect(created.secret).toMatch(/^ear_live_/);
    expect(created.key).toMatchObject({ name: 'ci', scopes: ['keys:read', 'calls:read'], status: 'active', workspace: 'voice-lab' });
    expect((await keysOnSecond(created.secret)).status).toBe(200);
  });

  it('lists keys as a table for people and as JSON', () => {
    const table = cli(['keys', 'list'], tenant.apiKey);
    for (const heading of ['NAME', 'PREFIX', 'SCOPES', 'ENV', 'IP', 'LAST USED', '24H', 'STATUS', 'WORKSPACE', 'EXPIRES']) expect(table).toContain(heading);
    expect(table).toContain('voice-lab');
    expect(table).toContain('any');
    const listed = ndjson<ApiKeyRecord>(['keys', 'list', '--workspace', 'voice-lab'], tenant.apiKey);
    expect(listed.map((k) => k.name)).toEqual(['ci']);
  });

  it('refuses to create a live key for staging', () => {
    const run = spawnSync(
      process.execPath,
      [earshot, 'keys', 'create', '--name', 'x', '--scopes', 'calls:read', '--environment', 'staging', '--kind', 'live', '--url', first.url],
      {
        env: { ...env, EARSHOT_API_KEY: tenant.apiKey },
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^earshot: VALIDATION_ERROR: /);
  });

  it('revokes a key in one process; the other, which keeps the key, refuses it within a second', async () => {
    const { key, secret } = json<{ key: ApiKeyRecord; secret: string }>(['keys', 'create', '--name', 'leaked', '--scopes', 'keys:read'], tenant.apiKey);
    for (let i = 0; i < 3; i++) expect((await keysOnSecond(secret)).status).toBe(200);
    const revoked = json<ApiKeyRecord>(['keys', 'revoke', key.id], tenant.apiKey);
    expect(revoked.status).toBe('revoked');
    await sleep(1_000);
    const refused = await keysOnSecond(secret);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ ok: false, code: 'UNAUTHORIZED', error: 'the API key has been revoked' });
  });

  it('rotates a key: the previous key works on the other process during the overlap, and stops after it', async () => {
    const { key, secret: previous } = json<{ key: ApiKeyRecord; secret: string }>(
      ['keys', 'create', '--name', 'rotating', '--scopes', 'keys:read'],
      tenant.apiKey,
    );
    expect((await keysOnSecond(previous)).status).toBe(200);
    const rotated = json<{ key: ApiKeyRecord; secret: string }>(['keys', 'rotate', key.id, '--overlap', '5s'], tenant.apiKey);
    expect(rotated.key.status).toBe('rotating');
    expect((await keysOnSecond(previous)).status).toBe(200);
    expect((await keysOnSecond(rotated.secret)).status).toBe(200);
    await sleep(Math.max(0, Date.parse(rotated.key.previousSecretValidUntil ?? '') - Date.now()) + 100);
    expect(await (await keysOnSecond(previous)).json()).toMatchObject({
      code: 'UNAUTHORIZED',
      error: 'the API key was rotated and its overlap has ended: use the new key',
    });
    expect((await keysOnSecond(rotated.secret)).status).toBe(200);
  });

  it('refuses an expired key on the other process', async () => {
    const { secret } = json<{ key: ApiKeyRecord; secret: string }>(
      ['keys', 'create', '--name', 'brief', '--scopes', 'keys:read', '--expires-in', '2s'],
      tenant.apiKey,
    );
    expect((await keysOnSecond(secret)).status).toBe(200);
    await sleep(2_100);
    expect(await (await keysOnSecond(secret)).json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'the API key has expired' });
  });

  it('rotates the webhook secret with the CLI, and shows last use and 24-hour usage', async () => {
    const rotated = json<{ webhookSecret: string; previousValidUntil: string }>(['secret', 'rotate', '--overlap', '1h'], tenant.apiKey);
    expect(rotated.webhookSecret).toMatch(/^whsec_/);
    expect(Date.parse(rotated.previousValidUntil) - Date.now()).toBeGreaterThan(3_500_000);
    expect(cli(['secret', 'rotate', '--overlap', '10m'], tenant.apiKey)).toContain('webhook secret  whsec_');
    let ci: ApiKeyRecord | undefined;
    for (let tries = 0; tries < 50 && (ci?.usage24h ?? 0) < 1; tries++) {
      await sleep(100);
      ci = ndjson<ApiKeyRecord>(['keys', 'list', '--workspace', 'voice-lab'], tenant.apiKey)[0];
    }
    expect(ci?.usage24h).toBe(1);
    expect(ci?.lastUsedAt).not.toBeNull();
  });

  it('shows every key and secret action in GET /audit, on either process', async () => {
    const response = await fetch(`${second.url}/api/v1/audit?limit=200`, { headers: { authorization: `Bearer ${tenant.apiKey}` } });
    const actions = ((await response.json()) as { items: { action: string }[] }).items.map((e) => e.action);
    for (const action of ['tenant.created', 'key.created', 'key.revoked', 'key.rotated', 'webhook_secret.rotated']) expect(actions).toContain(action);
  });

  it('lists, suspends, resumes and deletes tenants with the operator CLI; the other process follows within a second', async () => {
    const globex = json<TenantCredentials>(['tenant', 'create', '--name', 'Globex']);
    const table = cli(['tenant', 'list']);
    for (const text of ['NAME', 'STATUS', 'ACTIVE KEYS', 'Acme', 'Globex', 'active']) expect(table).toContain(text);
    expect((await keysOnSecond(globex.apiKey)).status).toBe(200);
    expect(json<{ tenant: { status: string } }>(['tenant', 'suspend', globex.tenant.id]).tenant.status).toBe('suspended');
    await sleep(1_000);
    expect(await (await keysOnSecond(globex.apiKey)).json()).toMatchObject({ code: 'FORBIDDEN', error: 'the tenant of this API key is suspended' });
    expect(cli(['tenant', 'list', '--status', 'suspended'])).toContain('Globex');
    cli(['tenant', 'resume', globex.tenant.id]);
    await sleep(1_000);
    expect((await keysOnSecond(globex.apiKey)).status).toBe(200);
    expect(cli(['tenant', 'delete', globex.tenant.id])).toContain(`deleted tenant ${globex.tenant.id}`);
    await sleep(1_000);
    expect(await (await keysOnSecond(globex.apiKey)).json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'the API key is not known' });
    expect((await keysOnSecond(tenant.apiKey)).status).toBe(200);
  });

  it('leaves no key or secret it showed anywhere in the database', async () => {
    expect(shown.length).toBeGreaterThan(8);
    const db = openDatabase({ url: databaseUrl, poolSize: 1, applicationName: 'test-plaintext-scan' });
    try {
      const { tables, findings } = await scanForPlaintext(db, [...new Set(shown)]);
      expect(tables.length).toBeGreaterThan(5);
      expect(findings).toEqual([]);
    } finally {
      await db.dispose();
    }
  });
});
