import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEALED_PREFIX, type DataKey, type KeyLookup } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { TOPICS, type EventLog } from '@earshot/log';
import { kafkaLog } from '@earshot/testing';
import { eventsTopic } from '@earshot/topics';
import { exportLog } from './export-log';
import type { ExportAuthority } from './export-sealing';

/**
 * A record whose sealed value was altered in the log (a flipped byte on disk,
 * a bug in a tool that rewrote it) among intact ones: the tenant's export
 * still writes every record, the altered one sealed, and says where it is.
 */
describe('export of a record whose sealed value does not open', () => {
  let log: EventLog;
  let dir: string;
  const tenant = randomUUID();
  const key: DataKey = { id: 'dk_tenant_unreadable', key: randomBytes(32) };
  const authority: ExportAuthority = {
    tenantId: tenant,
    keys: async (): Promise<KeyLookup> => (id) => (id === key.id ? key.key : undefined),
    erasedCalls: async () => () => undefined,
  };
  const said = (n: number) => `words-${n}-${randomUUID()}`;
  const words = [said(0), said(1), said(2)];

  beforeAll(async () => {
    log = await kafkaLog('export-unreadable');
    dir = await mkdtemp(join(tmpdir(), 'earshot-export-unreadable-'));
    const records = words.map((text, n) =>
      eventsTopic.record(
        sampleEvent('transcript.final', { tenant, idempotency_key: `unreadable:${n}`, call: { provider_call_id: 'call-1' }, data: { text } }),
        { recordId: 'call-1', sealWith: key },
      ),
    );
    // One byte of the middle record's first sealed value flipped, in place, so its Avro still reads.
    const altered = records[1];
    if (altered === undefined) throw new Error('no record to alter');
    const at = altered.value.indexOf(`${SEALED_PREFIX}${key.id}:`) + `${SEALED_PREFIX}${key.id}:`.length + 30;
    altered.value[at] = altered.value[at] === 0x41 ? 0x42 : 0x41;
    await log.append(records);
  });
  afterAll(async () => {
    await log.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes it sealed in NDJSON, naming why, and the others opened; the position comes back', async () => {
    const out = join(dir, 'events.ndjson');
    const exported = await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'ndjson', out, authority });
    const lines = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { data: { text: string }; _sealed?: string[]; _unreadable?: string; _log: { partition: number; offset: string } });
    expect(exported.records).toBe(3);
    expect(lines.map((l) => l.data.text)).toEqual([words[0], expect.stringMatching(new RegExp(`^${SEALED_PREFIX}${key.id}:`)), words[2]]);
    expect(lines[1]?._sealed).toEqual(expect.arrayContaining(['data.text']));
    expect(lines[1]?._unreadable).toBe(`call.from_number: the sealed value does not open with key ${key.id}, which it names: its bytes were altered`);
    expect(lines[0]?._unreadable).toBeUndefined();
    expect(exported.unreadable).toEqual([{ topic: TOPICS.events, partition: lines[1]?._log.partition, offset: lines[1]?._log.offset }]);
  });

  it('writes it sealed in Avro too, the others opened', async () => {
    const out = join(dir, 'events.avro');
    const exported = await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'avro', out, authority });
    const texts: string[] = [];
    await new Promise<void>((resolve, reject) => {
      avro
        .createFileDecoder(out)
        .on('data', (row: { data: string }) => texts.push((JSON.parse(row.data) as { text: string }).text))
        .on('end', resolve)
        .on('error', reject);
    });
    expect(texts).toEqual([words[0], expect.stringMatching(new RegExp(`^${SEALED_PREFIX}`)), words[2]]);
    expect(exported.unreadable).toHaveLength(1);
  });
});
