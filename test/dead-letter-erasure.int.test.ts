import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuditConsumer } from '@earshot/audit';
import { sql } from '@earshot/db';
import { callIdOf, EVENT_HEADERS } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { ADMIN_TOKEN, envelope, ingestHeaders, readTopic, scanForPlaintext, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';

interface DeadLetterAnswer {
  deadLetter: { id: string; tenantId: string; body: string | null; bodyBase64: string | null; erased: boolean };
}

/**
 * Erasure reaches the dead letters too: with sealing on, a refused payload's
 * body is sealed with the data key of the call its envelope names, or its
 * tenant's when it names none. Once the call is erased its dead letters are
 * unreadable, the call's neighbours' still open; once the tenant is deleted
 * all its bodies are unreadable in earshot.dlq, and in dead_letters rows a
 * rebuild from the topic brings back; the operator sees them as erased and
 * cannot replay them, while another tenant's dead letters still open.
 */
describe('erasing a call or a tenant with dead letters', () => {
  let earshot: TestEarshot;
  let erased: EarshotTenant;
  let kept: EarshotTenant;
  const secret = {
    erased: `dead-erase-me-${randomUUID()}`,
    kept: `dead-keep-me-${randomUUID()}`,
    callA: `dead-call-a-${randomUUID()}`,
    callB: `dead-call-b-${randomUUID()}`,
  };
  const calls = { a: `call-a-${randomUUID()}`, b: `call-b-${randomUUID()}` };
  const letters = { erased: '', kept: '', callA: '', callB: '' };

  const admin = (method: 'GET' | 'POST', path: string) =>
    fetch(`${earshot.origin}/api/v1/admin/dead-letters${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  /** A valid envelope sent without the provider header: refused whole into the dead-letter topic, and replayable as it is. */
  async function refused(tenant: EarshotTenant, text: string): Promise<string> {
    const body = JSON.stringify(
      envelope(`dead-${randomUUID()}`, { call: { provider_call_id: `call-${randomUUID()}`, agent_id: 'support-agent', customer_id: text } }),
    );
    const { 'x-earshot-provider': _left, ...headers } = ingestHeaders({ body, credentials: tenant, timestamp: Math.floor(Date.now() / 1_000) });
    const response = await fetch(`${earshot.origin}/api/v1/webhooks/ingest`, { method: 'POST', body, headers });
    expect(response.status).toBe(400);
    return ((await response.json()) as { deadLetterId: string }).deadLetterId;
  }

  /** A valid envelope about a call, accepted: the call exists, with events sealed with its key. */
  async function accepted(tenant: EarshotTenant, providerCallId: string): Promise<void> {
    const body = JSON.stringify(envelope(`live-${randomUUID()}`, { call: { provider_call_id: providerCallId, agent_id: 'support-agent' } }));
    const headers = ingestHeaders({ body, credentials: tenant, timestamp: Math.floor(Date.now() / 1_000) });
    const response = await fetch(`${earshot.origin}/api/v1/webhooks/ingest`, { method: 'POST', body, headers });
    expect(response.status).toBe(202);
  }

  /** An envelope about a call, refused by the intake (its occurred_at is no time): its call can be told, its envelope is invalid. */
  async function refusedAbout(tenant: EarshotTenant, providerCallId: string, text: string): Promise<string> {
    const body = JSON.stringify(
      envelope(`dead-${randomUUID()}`, { occurred_at: 'not a time', call: { provider_call_id: providerCallId, agent_id: 'support-agent', customer_id: text } }),
    );
    const headers = ingestHeaders({ body, credentials: tenant, timestamp: Math.floor(Date.now() / 1_000) });
    const response = await fetch(`${earshot.origin}/api/v1/webhooks/ingest`, { method: 'POST', body, headers });
    expect(response.status).toBe(400);
    return ((await response.json()) as { deadLetterId: string }).deadLetterId;
  }

  async function shown(id: string): Promise<DeadLetterAnswer['deadLetter']> {
    for (let waited = 0; waited < 30_000; waited += 200) {
      const response = await admin('GET', `/${id}`);
      if (response.status === 200) return ((await response.json()) as DeadLetterAnswer).deadLetter;
      await sleep(200);
    }
    throw new Error(`dead letter ${id} was not stored within 30 s`);
  }

  const dlqRecords = async (tenant: EarshotTenant) =>
    (await readTopic(earshot.runtime.log(), TOPICS.deadLetters)).filter((r) => r.headers[EVENT_HEADERS.tenant] === tenant.id);

  /** The id of the data key the gateway made for one of the erased tenant's calls (vapi's), as the superuser sees it. */
  async function callKeyOf(providerCallId: string): Promise<string | undefined> {
    const callId = callIdOf(erased.id, 'vapi', providerCallId);
    const [row] = (await earshot.db.query(sql`select id from data_keys where tenant_id = ${erased.id} and call_id = ${callId}`)) as { id: string }[];
    return row?.id;
  }

  beforeAll(async () => {
    earshot = await startEarshot('dead-letter-erasure', { env: { EARSHOT_SEAL_EVENTS: 'true' } });
    erased = await earshot.createTenant('Erased Ltd');
    kept = await earshot.createTenant('Kept Inc');
    letters.erased = await refused(erased, secret.erased);
    letters.kept = await refused(kept, secret.kept);
    await accepted(erased, calls.a);
    await accepted(erased, calls.b);
    letters.callA = await refusedAbout(erased, calls.a, secret.callA);
    letters.callB = await refusedAbout(erased, calls.b, secret.callB);
  });
  afterAll(async () => earshot.stop());

  it('writes the body sealed into the dead-letter topic and its table, and the operator route opens it', async () => {
    expect((await shown(letters.erased)).body).toContain(secret.erased);
    expect((await shown(letters.kept)).body).toContain(secret.kept);
    const records = await dlqRecords(erased);
    expect(records).toHaveLength(3);
    for (const record of records) {
      expect(record.headers[EVENT_HEADERS.sealedWith]).toMatch(/^dk_/);
      for (const text of [secret.erased, secret.callA, secret.callB]) expect(record.value.toString('latin1')).not.toContain(text);
    }
    const scan = await scanForPlaintext(earshot.db, Object.values(secret));
    expect(scan.findings.filter((f) => f.table === 'dead_letters')).toEqual([]);
  });

  it('seals the body of an envelope refused about a call with that call’s key, as its events would be', async () => {
    expect((await shown(letters.callA)).body).toContain(secret.callA);
    expect((await shown(letters.callB)).body).toContain(secret.callB);
    const sealedWith = new Map((await dlqRecords(erased)).map((r) => [r.headers['dead-letter-id'], r.headers[EVENT_HEADERS.sealedWith]]));
    const keyA = await callKeyOf(calls.a);
    const keyB = await callKeyOf(calls.b);
    expect(keyA).toMatch(/^dk_/);
    expect(sealedWith.get(letters.callA)).toBe(keyA);
    expect(sealedWith.get(letters.callB)).toBe(keyB);
    expect(keyB).not.toBe(keyA);
    // The envelope sent without its provider names no call we can tell: the tenant's key, as before.
    expect([keyA, keyB]).not.toContain(sealedWith.get(letters.erased));
  });

  it('leaves the dead letters about an erased call unreadable, and its neighbours’ readable and replayable', async () => {
    const callId = callIdOf(erased.id, 'vapi', calls.a);
    const erasure = await fetch(`${earshot.origin}/api/v1/calls/${callId}?reason=${encodeURIComponent('asked to be forgotten')}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${erased.apiKey}` },
    });
    expect(erasure.status).toBe(200);
    expect(await erasure.json()).toMatchObject({ ok: true, dataKeyDestroyed: true });

    expect(await shown(letters.callA)).toMatchObject({ tenantId: erased.id, body: null, bodyBase64: null, erased: true });
    const replayA = await admin('POST', `/${letters.callA}/replay`);
    expect(replayA.status).toBe(410);
    expect(await replayA.json()).toMatchObject({ ok: false, code: 'ERASED', error: expect.stringContaining(letters.callA) });

    expect(await shown(letters.callB)).toMatchObject({ erased: false, body: expect.stringContaining(secret.callB) });
    expect(await shown(letters.erased)).toMatchObject({ erased: false, body: expect.stringContaining(secret.erased) });
    // Opened and put through the intake again: still invalid, so it stays the same dead letter (not 410: nothing was erased).
    const replayB = await admin('POST', `/${letters.callB}/replay`);
    expect(replayB.status).toBe(400);
    expect(await replayB.json()).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      deadLetterId: letters.callB,
      error: expect.stringContaining('failed again'),
    });

    for (const record of await dlqRecords(erased)) expect(record.value.toString('latin1')).not.toContain(secret.callA);
    expect((await scanForPlaintext(earshot.db, [secret.callA])).findings).toEqual([]);
  });

  it('leaves its dead letters unreadable once the tenant is deleted, also in rows rebuilt from the topic', async () => {
    const deleted = await fetch(`${earshot.origin}/api/v1/admin/tenants/${erased.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(deleted.status).toBe(200);
    for (const id of [letters.erased, letters.callA, letters.callB]) expect((await admin('GET', `/${id}`)).status).toBe(404);

    // The audit tables rebuilt from the topic: positions forgotten, a new consumer group from the start.
    await earshot.db.query(sql`delete from audit_positions where topic = ${TOPICS.deadLetters}`);
    const rebuild = await startAuditConsumer({ db: earshot.runtime.database(), log: earshot.runtime.log(), group: `audit-rebuild-${randomUUID()}` });
    try {
      for (const id of [letters.erased, letters.callA, letters.callB]) {
        expect(await shown(id)).toMatchObject({ tenantId: erased.id, body: null, bodyBase64: null, erased: true });
      }
    } finally {
      await rebuild.stop();
    }
    const records = await dlqRecords(erased);
    // B's failed replay wrote it again, under the same id.
    expect(new Set(records.map((r) => r.headers['dead-letter-id']))).toEqual(new Set([letters.erased, letters.callA, letters.callB]));
    const gone = [secret.erased, secret.callA, secret.callB];
    for (const record of records) for (const text of gone) expect(record.value.toString('latin1')).not.toContain(text);
    const scan = await scanForPlaintext(earshot.db, gone);
    expect(scan.findings).toEqual([]);
  });

  it('refuses to replay an erased dead letter, 410 ERASED', async () => {
    const replay = await admin('POST', `/${letters.erased}/replay`);
    expect(replay.status).toBe(410);
    expect(await replay.json()).toMatchObject({ ok: false, code: 'ERASED', error: expect.stringContaining(letters.erased) });
  });

  it('refuses to replay a dead letter of the deleted tenant written in the clear (before sealing was on), 410 ERASED', async () => {
    const id = `dl_clear_${randomUUID()}`;
    const body = Buffer.from(JSON.stringify(envelope(`clear-${randomUUID()}`, { call: { provider_call_id: `call-${randomUUID()}` } })));
    await earshot.db.query(sql`
      insert into dead_letters (id, tenant_id, provider, received_at, source, reason, fields, body, sealed_with)
      values (${id}, ${erased.id}, 'vapi', now(), 'gateway', 'written before sealing', '[]'::jsonb, ${body}, null)`);
    const replay = await admin('POST', `/${id}/replay`);
    expect(replay.status).toBe(410);
    expect(await replay.json()).toMatchObject({ ok: false, code: 'ERASED', error: expect.stringContaining('was deleted') });
  });

  it('still shows and replays the kept tenant’s dead letter', async () => {
    const letter = await shown(letters.kept);
    expect(letter).toMatchObject({ tenantId: kept.id, erased: false, body: expect.stringContaining(secret.kept) });
    const replay = await admin('POST', `/${letters.kept}/replay`);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ ok: true, deadLetterId: letters.kept, status: 'replayed', results: [{ ok: true, duplicate: false }] });
  });
});
