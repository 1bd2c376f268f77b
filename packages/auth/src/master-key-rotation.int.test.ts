import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, sql, type ConnectionPool } from '@earshot/db';
import { decodeEvent, encodeEvent } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { openTestDatabase } from '@earshot/testing';
import { AUTH_MIGRATIONS } from './index';
import { DataKeys } from './data-keys';
import { AUTH_SEALED_COLUMNS, rotateMasterKey, type RotationProgress } from './master-key-rotation';
import { SecretBox } from './secret-box';
import { createTenant, rotateWebhookSecret } from './tenants';

describe('rotating the master key', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const before = new SecretBox(oldKey);
  const after = new SecretBox(newKey);
  /** What processes run with while the rotation is under way. */
  const during = new SecretBox(newKey, oldKey);
  const tenants: { id: string; secrets: string[]; sealed: Buffer; keyId: string }[] = [];

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('master-key-rotation'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS]);
    const keys = new DataKeys(db, before);
    for (const name of ['Acme', 'Globex', 'Initech']) {
      const created = await createTenant(db, before, { name });
      const rotated = await rotateWebhookSecret(db, before, created.tenant.id, new Date(Date.now() + 3_600_000));
      const key = (await keys.forCalls(created.tenant.id, ['call-1'])).get('call-1');
      const event = sampleEvent('transcript.final', { tenant: created.tenant.id, call: { provider_call_id: 'call-1' }, data: { text: `said at ${name}` } });
      tenants.push({ id: created.tenant.id, secrets: [rotated, created.webhookSecret], sealed: encodeEvent(event, key), keyId: key?.id ?? '' });
    }
  });
  afterAll(async () => close());

  const storedSecrets = async (id: string) =>
    (await db.query(sql`select webhook_secret, previous_webhook_secret from tenants where id = ${id}`)) as {
      webhook_secret: Buffer;
      previous_webhook_secret: Buffer;
    }[];

  it('stops half way when told to, and picks up where it stopped, sealing nothing twice', async () => {
    const stop = new Error('stopped');
    let seen: RotationProgress | undefined;
    await expect(
      rotateMasterKey(db, AUTH_SEALED_COLUMNS, {
        from: before,
        to: after,
        batchSize: 1,
        onProgress: (p) => {
          seen = p;
          if (p.rows === 2) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(seen).toMatchObject({ table: 'data_keys', rows: 2, total: 3, rewrapped: 2, current: 0 });
    // While it is half done, a process holding both keys still opens every tenant's key and secrets.
    for (const tenant of tenants) {
      const [row] = await storedSecrets(tenant.id);
      expect([during.open(row?.webhook_secret ?? Buffer.alloc(0)), during.open(row?.previous_webhook_secret ?? Buffer.alloc(0))]).toEqual(tenant.secrets);
      expect(decodeEvent(tenant.sealed, await new DataKeys(db, during).lookup([tenant.keyId])).data.text).toMatch(/^said at /);
    }

    const progress: RotationProgress[] = [];
    const done = await rotateMasterKey(db, AUTH_SEALED_COLUMNS, { from: before, to: after, batchSize: 2, onProgress: (p) => progress.push(p) });
    expect(done).toEqual([
      { table: 'data_keys', rows: 3, total: 3, rewrapped: 1, current: 2 },
      { table: 'tenants', rows: 3, total: 3, rewrapped: 6, current: 0 },
    ]);
    expect(progress.map((p) => `${p.table} ${p.rows}/${p.total}`)).toEqual([
      'data_keys 0/3',
      'data_keys 2/3',
      'data_keys 3/3',
      'tenants 0/3',
      'tenants 2/3',
      'tenants 3/3',
    ]);
  });

  it('leaves events sealed before it readable with the new key alone, and not with the old one', async () => {
    for (const tenant of tenants) {
      const [row] = await storedSecrets(tenant.id);
      expect([after.open(row?.webhook_secret ?? Buffer.alloc(0)), after.open(row?.previous_webhook_secret ?? Buffer.alloc(0))]).toEqual(tenant.secrets);
      expect(() => before.open(row?.webhook_secret ?? Buffer.alloc(0))).toThrow();
      expect(decodeEvent(tenant.sealed, await new DataKeys(db, after).lookup([tenant.keyId])).data.text).toMatch(/^said at /);
      await expect(new DataKeys(db, before).lookup([tenant.keyId])).rejects.toThrow();
    }
  });

  it('changes nothing when run again', async () => {
    const wrapped = await db.query(sql`select id, wrapped from data_keys order by id`);
    const done = await rotateMasterKey(db, AUTH_SEALED_COLUMNS, { from: before, to: after });
    expect(done.map((d) => d.rewrapped)).toEqual([0, 0]);
    expect(done.map((d) => d.current)).toEqual([3, 6]);
    expect(await db.query(sql`select id, wrapped from data_keys order by id`)).toEqual(wrapped);
  });

  it('refuses a value neither key opens, naming its row', async () => {
    const stranger = new SecretBox(randomBytes(32));
    const { tenant } = await createTenant(db, stranger, { name: 'Sealed elsewhere' });
    await expect(rotateMasterKey(db, AUTH_SEALED_COLUMNS, { from: before, to: after })).rejects.toThrow(
      `tenants ${tenant.id}: webhook_secret opens under neither the old nor the new master key`,
    );
  });
});
