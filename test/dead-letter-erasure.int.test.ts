import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuditConsumer } from '@earshot/audit';
import { sql } from '@earshot/db';
import { EVENT_HEADERS } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { ADMIN_TOKEN, envelope, ingestHeaders, readTopic, scanForPlaintext, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';

interface DeadLetterAnswer {
  deadLetter: { id: string; tenantId: string; body: string | null; bodyBase64: string | null; erased: boolean };
}

/**
 * Tenant erasure reaches the dead letters too: with sealing on, a refused
 * payload's body is sealed with its tenant's data key, so once the tenant is
 * deleted its bodies are unreadable in earshot.dlq, and in dead_letters rows
 * a rebuild from the topic brings back; the operator sees them as erased and
 * cannot replay them, while another tenant's dead letters still open.
 */
describe('erasing a tenant with dead letters', () => {
  let earshot: TestEarshot;
  let erased: EarshotTenant;
  let kept: EarshotTenant;
  const secret = { erased: `dead-erase-me-${randomUUID()}`, kept: `dead-keep-me-${randomUUID()}` };
  const letters = { erased: '', kept: '' };

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

  beforeAll(async () => {
    earshot = await startEarshot('dead-letter-erasure', { env: { EARSHOT_SEAL_EVENTS: 'true' } });
    erased = await earshot.createTenant('Erased Ltd');
    kept = await earshot.createTenant('Kept Inc');
    letters.erased = await refused(erased, secret.erased);
    letters.kept = await refused(kept, secret.kept);
  });
  afterAll(async () => earshot.stop());

  it('writes the body sealed into the dead-letter topic and its table, and the operator route opens it', async () => {
    expect((await shown(letters.erased)).body).toContain(secret.erased);
    expect((await shown(letters.kept)).body).toContain(secret.kept);
    const records = await dlqRecords(erased);
    expect(records).toHaveLength(1);
    expect(records[0]?.headers[EVENT_HEADERS.sealedWith]).toMatch(/^dk_/);
    expect(records[0]?.value.toString('latin1')).not.toContain(secret.erased);
    const scan = await scanForPlaintext(earshot.db, [secret.erased, secret.kept]);
    expect(scan.findings.filter((f) => f.table === 'dead_letters')).toEqual([]);
  });

  it('leaves its dead letters unreadable once the tenant is deleted, also in rows rebuilt from the topic', async () => {
    const deleted = await fetch(`${earshot.origin}/api/v1/admin/tenants/${erased.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(deleted.status).toBe(200);
    expect((await admin('GET', `/${letters.erased}`)).status).toBe(404);

    // The audit tables rebuilt from the topic: positions forgotten, a new consumer group from the start.
    await earshot.db.query(sql`delete from audit_positions where topic = ${TOPICS.deadLetters}`);
    const rebuild = await startAuditConsumer({ db: earshot.runtime.database(), log: earshot.runtime.log(), group: `audit-rebuild-${randomUUID()}` });
    try {
      const letter = await shown(letters.erased);
      expect(letter).toMatchObject({ tenantId: erased.id, body: null, bodyBase64: null, erased: true });
    } finally {
      await rebuild.stop();
    }
    const records = await dlqRecords(erased);
    expect(records).toHaveLength(1);
    for (const record of records) expect(record.value.toString('latin1')).not.toContain(secret.erased);
    const scan = await scanForPlaintext(earshot.db, [secret.erased]);
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
