import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataKeys, SecretBox } from '@earshot/auth';
import { callIdOf, decodeEvent, EVENT_HEADERS } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { exportLog, rebuildReadModels } from '@earshot/projector';
import {
  ADMIN_TOKEN,
  readTopic,
  sendTranscribedCall,
  scanForPlaintext,
  startEarshot,
  testFolder,
  type EarshotTenant,
  type TestEarshot,
} from '@earshot/testing';

/**
 * Tenant erasure by crypto-shredding, end to end: events go in through the
 * signed ingest route with sealing on, the projector opens their call's
 * fields and keeps what was said sealed for the API to open, and after the
 * tenant is deleted its events are still in the topic while neither the
 * database, a replay nor an export holds its transcript or its customer.
 */
describe('erasing a tenant', () => {
  let earshot: TestEarshot;
  let erased: EarshotTenant;
  let kept: EarshotTenant;
  const secret = { erased: `erase-me-${randomUUID()}`, kept: `keep-me-${randomUUID()}` };
  /** The customer id sendTranscribedCall gives each call: a personal field the projector opens into the calls table. */
  const customer = { erased: 'customer-of-call-erased', kept: 'customer-of-call-kept' };

  async function send(tenant: EarshotTenant, callId: string, text: string): Promise<void> {
    expect((await sendTranscribedCall(earshot.origin, tenant, callId, text)).status).toBe(202);
  }

  async function callJson(tenant: EarshotTenant, callId: string): Promise<string> {
    const response = await fetch(`${earshot.origin}/api/v1/calls/${callIdOf(tenant.id, 'vapi', callId)}`, {
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    return response.text();
  }

  /** Which of these texts some table of the database holds in the clear. */
  async function inTheClear(texts: string[]): Promise<string[]> {
    const found: string[] = [];
    // One scan each: a finding names its text by a prefix, which the two customers share.
    for (const text of texts) if ((await scanForPlaintext(earshot.db, [text])).findings.length > 0) found.push(text);
    return found;
  }

  async function projected(tenant: EarshotTenant, callId: string, text: string): Promise<void> {
    for (let waited = 0; waited < 30_000; waited += 200) {
      if ((await callJson(tenant, callId)).includes(text)) return;
      await sleep(200);
    }
    throw new Error(`call ${callId} was not projected with its transcript within 30 s`);
  }

  beforeAll(async () => {
    earshot = await startEarshot('erasure', { env: { EARSHOT_SEAL_EVENTS: 'true' } });
    erased = await earshot.createTenant('Erased Ltd');
    kept = await earshot.createTenant('Kept Inc');
    await send(erased, 'call-erased', secret.erased);
    await send(kept, 'call-kept', secret.kept);
    await projected(erased, 'call-erased', secret.erased);
    await projected(kept, 'call-kept', secret.kept);
  });
  afterAll(async () => earshot.stop());

  it('writes the transcript sealed into the log, and the read models keep it sealed for the API to open', async () => {
    const records = (await readTopic(earshot.runtime.log(), TOPICS.events)).filter((r) => r.headers[EVENT_HEADERS.tenant] === erased.id);
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record.headers[EVENT_HEADERS.sealedWith]).toMatch(/^dk_/);
      expect(record.value.toString('latin1')).not.toContain(secret.erased);
      expect(record.value.toString('latin1')).not.toContain('customer-of-call-erased');
    }
    expect(await inTheClear([secret.erased, customer.erased])).toEqual([customer.erased]);
    expect(await callJson(erased, 'call-erased')).toContain(secret.erased);
  });

  it('leaves its events in the topic as unreadable bytes once the tenant is deleted', async () => {
    const deleted = await fetch(`${earshot.origin}/api/v1/admin/tenants/${erased.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(deleted.status).toBe(200);

    const records = (await readTopic(earshot.runtime.log(), TOPICS.events)).filter((r) => r.headers[EVENT_HEADERS.tenant] === erased.id);
    expect(records).toHaveLength(2);
    const keys = new DataKeys(earshot.db, earshot.runtime.access().secrets);
    const lookup = await keys.lookup(records.map((r) => r.headers[EVENT_HEADERS.sealedWith] ?? ''));
    for (const record of records) expect(JSON.stringify(decodeEvent(record.value, lookup))).not.toContain(secret.erased);

    expect(await inTheClear([secret.erased, customer.erased, customer.kept])).toEqual([customer.kept]);
  });

  it('does not bring its fields back in a replay, which still rebuilds the other tenants', async () => {
    const keys = new DataKeys(earshot.db, earshot.runtime.access().secrets);
    const summary = await rebuildReadModels({ db: earshot.runtime.database(), log: earshot.runtime.log(), from: 'earliest', keys: (ids) => keys.lookup(ids) });
    expect(summary.applied).toBeGreaterThanOrEqual(2);
    expect(await inTheClear([secret.erased, customer.erased, customer.kept])).toEqual([customer.kept]);
    expect(await callJson(kept, 'call-kept')).toContain(secret.kept);
  });

  it('does not bring its fields back in an export of the log', async () => {
    const out = join(testFolder('earshot-erasure-'), 'events.ndjson');
    const { records } = await exportLog({ log: earshot.runtime.log(), topic: TOPICS.events, from: 'earliest', format: 'ndjson', out });
    const exported = await readFile(out, 'utf8');
    expect(records).toBeGreaterThanOrEqual(4);
    expect(exported).toContain(erased.id);
    expect(exported).not.toContain(secret.erased);
  });

  it('cannot open its data key with another master key either', async () => {
    const stranger = new DataKeys(earshot.db, new SecretBox(Buffer.alloc(32, 7)));
    const record = (await readTopic(earshot.runtime.log(), TOPICS.events)).find(
      (r) => r.headers[EVENT_HEADERS.idempotencyKey] === 'call-kept:transcript.final',
    );
    expect(record?.headers[EVENT_HEADERS.tenant]).toBe(kept.id);
    await expect(stranger.lookup([record?.headers[EVENT_HEADERS.sealedWith] ?? ''])).rejects.toThrow();
  });
});
