import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, type EventLog } from '@earshot/log';
import { kafkaLog, appendEvents, callScript } from '@earshot/testing';
import { exportLog } from './export-log';

async function readAvro(path: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  await new Promise<void>((resolve, reject) => {
    avro
      .createFileDecoder(path)
      .on('data', (row: Record<string, unknown>) => rows.push(row))
      .on('end', resolve)
      .on('error', reject);
  });
  return rows;
}

describe('export of the log for data teams', () => {
  let log: EventLog;
  let dir: string;
  const tenant = randomUUID();
  const early = callScript({ tenant, providerCallId: 'early', turns: 2 });
  const late = callScript({ tenant, providerCallId: 'late', turns: 1 });
  let between: Date;

  beforeAll(async () => {
    log = await kafkaLog('export');
    dir = await mkdtemp(join(tmpdir(), 'earshot-export-'));
    await appendEvents(log, early);
    await new Promise((resolve) => setTimeout(resolve, 50));
    between = new Date();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await appendEvents(log, late);
  });
  afterAll(async () => {
    await log.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes newline-delimited JSON of the decoded events with their log positions', async () => {
    const out = join(dir, 'events.ndjson');
    expect(await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'ndjson', out })).toEqual({
      records: early.length + late.length,
      unreadable: [],
    });
    const lines = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { idempotency_key: string; data: unknown; _log: { offset: string } });
    expect(lines.map((l) => l.idempotency_key).sort()).toEqual([...early, ...late].map((e) => e.idempotency_key).sort());
    const first = early[0];
    expect(lines.find((l) => l.idempotency_key === first?.idempotency_key)?.data).toEqual(first?.data);
  });

  it('keeps to the time range asked for', async () => {
    const before = join(dir, 'before.ndjson');
    const after = join(dir, 'after.ndjson');
    expect(await exportLog({ log, topic: TOPICS.events, from: 'earliest', to: between, format: 'ndjson', out: before })).toEqual({
      records: early.length,
      unreadable: [],
    });
    expect(await exportLog({ log, topic: TOPICS.events, from: between, format: 'ndjson', out: after })).toEqual({ records: late.length, unreadable: [] });
  });

  it('writes an Avro object container file in the envelope schema', async () => {
    const out = join(dir, 'events.avro');
    await exportLog({ log, topic: TOPICS.events, from: 'earliest', format: 'avro', out });
    const rows = await readAvro(out);
    expect(rows).toHaveLength(early.length + late.length);
    const answered = early.find((e) => e.type === 'call.answered');
    const row = rows.find((r) => r.idempotency_key === answered?.idempotency_key);
    expect(row).toMatchObject({ type: 'call.answered', tenant, occurred_at: Date.parse(answered?.occurred_at ?? '') });
    expect(JSON.parse(String(row?.data))).toEqual(answered?.data);
  });
});
