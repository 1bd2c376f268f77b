import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealDeadLetter, type DataKey, type KeyLookup } from '@earshot/events';
import { sampleDeadLetter, sampleEvent } from '@earshot/events/samples';
import { TOPICS, type EventLog } from '@earshot/log';
import { kafkaLog } from '@earshot/testing';
import { deadLettersTopic, eventsTopic } from '@earshot/topics';
import { exportLog } from './export-log';
import type { ExportAuthority } from './export-sealing';

interface Row {
  tenant: string;
  data: string;
  call: { customer_id: string | null } | null;
}

async function readAvro(path: string): Promise<{ rows: Row[]; meta: Record<string, Buffer> }> {
  const rows: Row[] = [];
  let meta: Record<string, Buffer> = {};
  await new Promise<void>((resolve, reject) => {
    avro
      .createFileDecoder(path)
      .on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer> }) => (meta = header.meta))
      .on('data', (row: Row) => rows.push(row))
      .on('end', resolve)
      .on('error', reject);
  });
  return { rows, meta };
}

/**
 * Sealed events as ingest appends them, read back by the export: sealed and
 * named as such without a tenant's authority; with it, only that tenant's
 * records, opened with the keys its authority hands over (DataKeys.lookup
 * with the tenant, in the CLI), in NDJSON and in Avro alike.
 */
describe('export of sealed events', () => {
  let log: EventLog;
  let dir: string;
  const tenants = { a: randomUUID(), b: randomUUID() };
  const keys: Record<'a' | 'b', DataKey> = { a: { id: 'dk_tenant_a', key: randomBytes(32) }, b: { id: 'dk_tenant_b', key: randomBytes(32) } };
  const secret = { a: `words-of-a-${randomUUID()}`, b: `words-of-b-${randomUUID()}` };
  const authorityOf = (who: 'a' | 'b'): ExportAuthority => ({
    tenantId: tenants[who],
    keys: async (): Promise<KeyLookup> => (id) => (id === keys[who].id ? keys[who].key : undefined),
    erasedCalls: async () => () => undefined,
  });

  beforeAll(async () => {
    log = await kafkaLog('export-sealing');
    dir = await mkdtemp(join(tmpdir(), 'earshot-export-sealing-'));
    await log.append(
      (['a', 'b'] as const).map((who) =>
        eventsTopic.record(
          sampleEvent('transcript.final', {
            tenant: tenants[who],
            idempotency_key: `${who}:transcript`,
            call: { provider_call_id: `call-${who}`, customer_id: `customer-${who}` },
            data: { text: secret[who] },
          }),
          { recordId: `call-${who}`, sealWith: keys[who] },
        ),
      ),
    );
    await log.append(
      (['a', 'b'] as const).map((who) =>
        deadLettersTopic.record(
          sealDeadLetter(
            sampleDeadLetter({ id: `dl-${who}-${randomUUID()}`, tenant: tenants[who], body: Buffer.from(`{"text":"${secret[who]}"}`) }),
            keys[who],
          ),
        ),
      ),
    );
  });
  afterAll(async () => {
    await log.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function ndjson(authority?: ExportAuthority): Promise<{ text: string; lines: { tenant: string; _sealed?: string[] }[] }> {
    const out = join(dir, `${randomUUID()}.ndjson`);
    await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'ndjson', out, ...(authority ? { authority } : {}) });
    const text = await readFile(out, 'utf8');
    return {
      text,
      lines: text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { tenant: string; _sealed?: string[] }),
    };
  }

  it('leaves every tenant’s fields sealed without an authority, and names them under _sealed', async () => {
    const { text, lines } = await ndjson();
    expect(new Set(lines.map((l) => l.tenant))).toEqual(new Set(Object.values(tenants)));
    for (const word of [...Object.values(secret), 'customer-a', 'customer-b']) expect(text).not.toContain(word);
    for (const line of lines) expect(line._sealed).toEqual(expect.arrayContaining(['call.customer_id', 'data.text']));
  });

  it('opens one tenant’s fields with its authority, and writes no other tenant’s records', async () => {
    const { text, lines } = await ndjson(authorityOf('a'));
    expect(lines.map((l) => l.tenant)).toEqual([tenants.a]);
    expect(text).toContain(secret.a);
    expect(text).not.toContain(secret.b);
    expect(lines[0]?._sealed).toBeUndefined();
  });

  it('says in the Avro header which fields may be sealed and for whom they were opened', async () => {
    const opened = join(dir, 'a.avro');
    await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'avro', out: opened, authority: authorityOf('a') });
    const mine = await readAvro(opened);
    const note = JSON.parse(String(mine.meta['earshot.sealed'])) as { openedForTenant: string | null; fields: Record<string, string[]> };
    expect(note.openedForTenant).toBe(tenants.a);
    expect(note.fields['transcript.final']).toEqual(expect.arrayContaining(['call.customer_id', 'data.text']));
    expect(mine.rows).toHaveLength(1);
    expect((JSON.parse(mine.rows[0]?.data ?? '{}') as { text?: string }).text).toBe(secret.a);
    expect(mine.rows[0]?.call?.customer_id).toBe('customer-a');

    const sealed = join(dir, 'all.avro');
    await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'avro', out: sealed });
    const all = await readAvro(sealed);
    expect((JSON.parse(String(all.meta['earshot.sealed'])) as { openedForTenant: string | null }).openedForTenant).toBeNull();
    expect(all.rows).toHaveLength(2);
    expect(JSON.stringify(all.rows)).not.toMatch(/words-of|customer-[ab]/);
  });

  it('opens a tenant’s dead-letter bodies with its authority, in NDJSON and Avro, and leaves them sealed without it', async () => {
    const lines = async (authority?: ExportAuthority) => {
      const out = join(dir, `${randomUUID()}.ndjson`);
      await exportLog({ log, topic: TOPICS.deadLetters, from: 'earliest', format: 'ndjson', out, ...(authority ? { authority } : {}) });
      return (await readFile(out, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { tenant: string; body: string; sealed_with: string | null; _sealed?: string[] });
    };
    const bodyText = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

    const sealed = await lines();
    expect(sealed).toHaveLength(2);
    for (const line of sealed) {
      expect(line._sealed).toEqual(['body']);
      expect(bodyText(line.body)).not.toMatch(/words-of/);
    }

    const mine = await lines(authorityOf('a'));
    expect(mine).toMatchObject([{ tenant: tenants.a, sealed_with: null }]);
    expect(mine[0]?._sealed).toBeUndefined();
    expect(bodyText(mine[0]?.body ?? '')).toContain(secret.a);

    const avroOut = join(dir, 'dead-letters-a.avro');
    await exportLog({ log, topic: TOPICS.deadLetters, from: 'earliest', format: 'avro', out: avroOut, authority: authorityOf('a') });
    const rows = (await readAvro(avroOut)).rows as unknown as { body: Buffer; sealed_with: string | null }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.sealed_with).toBeNull();
    expect(rows[0]?.body.toString('utf8')).toContain(secret.a);
  });
});
