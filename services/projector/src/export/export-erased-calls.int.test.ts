import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataKeys } from '@earshot/auth';
import { callIdOf } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { sendProjectedCall, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { exportLog, type ExportFormat } from './export-log';
import type { ExportAuthority } from './export-sealing';

interface Exported {
  tenant: string;
  idempotency_key: string;
  call: { provider_call_id: string } | null;
  /** NDJSON only. */
  _log?: { partition: number; offset: string };
}

async function readAvro(path: string): Promise<Exported[]> {
  const rows: Exported[] = [];
  await new Promise<void>((resolve, reject) => {
    avro
      .createFileDecoder(path)
      .on('data', (row: Exported) => rows.push(row))
      .on('end', resolve)
      .on('error', reject);
  });
  return rows;
}

/**
 * With sealing off, erasing a call destroys no key that reaches its events:
 * an export with the tenant's authority leaves out the call's events the log
 * stored before the erasure (the projector's rule), in NDJSON and in Avro,
 * and writes the tenant's other call as before.
 */
describe('export with a tenant’s authority of a call erased in the clear', () => {
  let earshot: TestEarshot;
  let acme: EarshotTenant;
  let dir: string;
  const said = { erased: `export-forget-${randomUUID()}`, kept: `export-keep-${randomUUID()}` };

  async function exported(format: ExportFormat): Promise<{ text: string; rows: Exported[] }> {
    const out = join(dir, `events-${randomUUID()}.${format}`);
    const keys = new DataKeys(earshot.db, earshot.runtime.access().secrets);
    const authority: ExportAuthority = { tenantId: acme.id, keys: (ids) => keys.lookup(ids, acme.id), erasedCalls: (calls) => keys.erasedCalls(calls) };
    await exportLog({ log: earshot.runtime.log(), topic: TOPICS.events, from: 'earliest', format, out, authority });
    if (format === 'avro') return { text: '', rows: await readAvro(out) };
    const text = await readFile(out, 'utf8');
    return { text, rows: text.split('\n').flatMap((line) => (line === '' ? [] : [JSON.parse(line) as Exported])) };
  }

  /**
   * Each event's call once: the log is at-least-once (a producer replaced after a timeout sends its batch again),
   * and an export writes what the log holds, so an event may be there twice under its one idempotency key.
   */
  const callsOf = (rows: readonly Exported[]) =>
    [...new Map(rows.map((row) => [row.idempotency_key, row])).values()].flatMap((row) => (row.call ? [row.call.provider_call_id] : []));

  beforeAll(async () => {
    earshot = await startEarshot('export-erased-clear', { env: { EARSHOT_SEAL_EVENTS: 'false' } });
    dir = await mkdtemp(join(tmpdir(), 'earshot-export-erased-'));
    acme = await earshot.createTenant('Acme');
    await sendProjectedCall(earshot.origin, acme, 'call-erased', said.erased);
    await sendProjectedCall(earshot.origin, acme, 'call-kept', said.kept);
  }, 120_000);
  afterAll(async () => {
    await earshot?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes none of the erased call’s events appended in the clear, and the other call’s', async () => {
    const before = await exported('ndjson');
    // The export itself writes each record once.
    const positions = before.rows.map((row) => `${row._log?.partition}:${row._log?.offset}`);
    expect(new Set(positions).size).toBe(positions.length);
    expect(callsOf(before.rows).filter((c) => c === 'call-erased')).toHaveLength(2);

    const erased = await fetch(`${earshot.origin}/api/v1/calls/${callIdOf(acme.id, 'vapi', 'call-erased')}?reason=asked`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${acme.apiKey}` },
    });
    expect(erased.status).toBe(200);

    const ndjson = await exported('ndjson');
    expect(ndjson.text).not.toContain(said.erased);
    expect(ndjson.text).toContain(said.kept);
    expect(callsOf(ndjson.rows)).toEqual(['call-kept', 'call-kept']);
    expect(ndjson.rows.every((row) => row.tenant === acme.id)).toBe(true);
    expect(callsOf((await exported('avro')).rows)).toEqual(['call-kept', 'call-kept']);
  });
});
