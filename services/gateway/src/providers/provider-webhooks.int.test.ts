import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign as retellSign } from 'retell-sdk';
import twilio from 'twilio';
import { Webhook } from 'standardwebhooks';
import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { CURRENT_EVENT_VERSION, type CallDetail, type ProviderConnection, type ProviderName } from '@earshot/contracts';
import { callIdOf } from '@earshot/events';
import { blandCall, elevenLabsConversation, formBody, retellCall, twilioCall, vapiCall } from '@earshot/providers/fixtures';
import { startEarshot, testFolder, type EarshotTenant, type TestEarshot } from '@earshot/testing';

type Call = CallDetail['call'];
const EARSHOT_CLI = new URL('../../../../packages/cli/bin/earshot.js', import.meta.url).pathname;
interface Issued {
  connection: ProviderConnection;
  secret: string | null;
}

describe('provider webhooks against a running Earshot', () => {
  let earshot: TestEarshot;
  let tenant: EarshotTenant;

  beforeAll(async () => {
    earshot = await startEarshot('provider-webhooks');
    tenant = await earshot.createTenant('Acme Voice');
  }, 120_000);
  afterAll(async () => earshot?.stop());

  const api = async (method: string, path: string, body?: unknown, token = tenant.apiKey) => {
    const response = await fetch(`${earshot.origin}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const connect = async (body: Record<string, unknown>): Promise<Issued> => {
    const created = await api('POST', '/providers', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as unknown as Issued;
  };
  const post = async (url: string, body: string, headers: Record<string, string>) => {
    const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** Answered 200 with every event it became accepted: none dead-lettered. */
  const taken = (answer: { status: number; body: Record<string, unknown> }) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(
      (answer.body.events as { ok: boolean }[]).filter((event) => !event.ok),
      JSON.stringify(answer.body),
    ).toEqual([]);
  };
  /** The call as GET /calls/{id} reads it once the projector has it and `ready` holds. */
  const readCall = async (provider: ProviderName, providerCallId: string, ready: (call: Call) => boolean): Promise<Call> => {
    const id = callIdOf(tenant.id, provider, providerCallId);
    const deadline = Date.now() + 60_000;
    let last: unknown = null;
    while (Date.now() < deadline) {
      const read = await api('GET', `/calls/${id}`);
      last = read.body;
      if (read.status === 200 && ready((read.body as unknown as CallDetail).call)) return (read.body as unknown as CallDetail).call;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`call ${providerCallId} of ${provider} never read back as expected: ${JSON.stringify(last)}`);
  };

  it('connects a provider: the webhook URL to paste, credentials never answered, every change audited', async () => {
    const { connection, secret } = await connect({ provider: 'retell', name: 'support line', credentials: { apiKey: 'key_conn_0123456789abcdef' } });
    expect(secret).toBeNull();
    expect(connection).toMatchObject({ provider: 'retell', name: 'support line', status: 'active', mapping: null, previousCredentialsValidUntil: null });
    expect(connection.webhookUrl).toBe(`${earshot.origin}/api/v1/webhooks/providers/retell/${connection.id}`);
    expect(JSON.stringify(connection)).not.toContain('key_conn_0123456789abcdef');

    const got = await api('GET', `/providers/${connection.id}`);
    expect(got).toMatchObject({ status: 200, body: { ok: true, connection: { id: connection.id } } });
    const listed = await api('GET', '/providers?provider=retell');
    expect((listed.body.items as ProviderConnection[]).map((c) => c.id)).toContain(connection.id);

    const sw = await connect({ provider: 'standard-webhooks', name: 'in-house bot' });
    expect(sw.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(sw.secret as string)).toBeDefined();

    const invalid = await api('POST', '/providers', { provider: 'twilio', name: 'x', credentials: { apiKey: 'not-the-twilio-credential' } });
    expect(invalid).toMatchObject({ status: 400, body: { ok: false, code: 'VALIDATION_ERROR' } });
    const readOnly = await earshot.createKey(tenant.id, ['providers:read']);
    expect((await api('POST', '/providers', { provider: 'bland', name: 'b', credentials: { secret: 'bland-secret-1' } }, readOnly)).status).toBe(403);
    expect((await api('GET', '/providers', undefined, readOnly)).status).toBe(200);

    const deleted = await api('DELETE', `/providers/${connection.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { ok: true, id: connection.id } });
    expect((await api('GET', `/providers/${connection.id}`)).status).toBe(404);
    const audit = await api('GET', '/audit?limit=50');
    const actions = (audit.body.items as { action: string }[]).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['provider_connection.created', 'provider_connection.deleted']));
  });

  it('Retell: every event signed by retell-sdk is taken, and the call reads back as Retell described it', async () => {
    const apiKey = 'key_retell_5f3b2a1c0d9e8f7a';
    const { connection } = await connect({ provider: 'retell', name: 'support line', credentials: { apiKey } });
    const { deliveries } = retellCall('call_it_5f1a9e', Date.now() - 120_000);
    for (const delivery of deliveries) {
      const body = JSON.stringify(delivery);
      const answer = await post(connection.webhookUrl, body, { 'x-retell-signature': await retellSign(body, apiKey) });
      taken(answer);
    }
    const call = await readCall('retell', 'call_it_5f1a9e', (c) => c.summary !== null && c.success !== null);
    expect(call).toMatchObject({
      provider: 'retell',
      providerCallId: 'call_it_5f1a9e',
      agentId: 'agent_retell_support',
      agentVersion: '7',
      durationMs: 15_200,
      costUsd: 0.125,
      success: true,
      toolCallCount: 1,
    });
    expect(call.turns.map((t) => t.latency.totalMs)).toEqual([820, 910]);
    expect(call.transcript.map((s) => s.speaker)).toEqual(['agent', 'customer', 'agent', 'customer', 'agent']);

    // Retell retries what it thinks failed: the same delivery again is answered 200, a duplicate.
    const body = JSON.stringify(deliveries.find((d) => d.event === 'call_ended'));
    const retry = await post(connection.webhookUrl, body, { 'x-retell-signature': await retellSign(body, apiKey) });
    expect(retry).toMatchObject({ status: 200, body: { ok: true, duplicate: true } });
  });

  it('refuses what the provider did not sign: 401 in the Error shape, nothing taken', async () => {
    const apiKey = 'key_retell_refusals_000001';
    const { connection } = await connect({ provider: 'retell', name: 'refusals', credentials: { apiKey } });
    const body = JSON.stringify(retellCall('call_it_refused', Date.now()).deliveries[0]);
    const signature = await retellSign(body, apiKey);
    const reserialized = await post(connection.webhookUrl, JSON.stringify(JSON.parse(body), null, 2), { 'x-retell-signature': signature });
    expect(reserialized).toMatchObject({ status: 401, body: { ok: false, code: 'UNAUTHORIZED' } });
    const forged = await post(connection.webhookUrl, body, { 'x-retell-signature': await retellSign(body, 'key_somebody_else_00000') });
    expect(forged.status).toBe(401);
    const staleAt = Date.now() - 6 * 60_000;
    const stale = `v=${staleAt},d=${createHmac('sha256', apiKey)
      .update(body + String(staleAt))
      .digest('hex')}`;
    expect(await post(connection.webhookUrl, body, { 'x-retell-signature': stale })).toMatchObject({
      status: 401,
      body: { error: expect.stringContaining('5 minutes') },
    });
    expect((await post(connection.webhookUrl, body, {})).status).toBe(401);
    const elsewhere = connection.webhookUrl.replace('/retell/', '/vapi/');
    expect((await post(elsewhere, body, { 'x-retell-signature': signature })).status).toBe(404);
    expect((await api('GET', `/calls/${callIdOf(tenant.id, 'retell', 'call_it_refused')}`)).status).toBe(404);
  });

  it('an event type Earshot does not map is kept as a dead letter with the reason and answered 200', async () => {
    const apiKey = 'key_retell_unknown_000001';
    const { connection } = await connect({ provider: 'retell', name: 'unknown', credentials: { apiKey } });
    const body = JSON.stringify({ event: 'chat_started', call: { call_id: 'chat_1', agent_id: 'agent_chat' } });
    const answer = await post(connection.webhookUrl, body, { 'x-retell-signature': await retellSign(body, apiKey) });
    expect(answer).toMatchObject({
      status: 200,
      body: { ok: true, events: [], deadLetterId: expect.any(String), reason: expect.stringContaining('chat_started') },
    });
  });

  it('Twilio: status and recording callbacks signed as the twilio package signs them read back as the call', async () => {
    const authToken = '9f2d4c6b8a0e1f3d5c7b9a1e3f5d7c9b';
    const { connection } = await connect({ provider: 'twilio', name: 'main line', credentials: { authToken } });
    const callSid = 'CA11112222333344445555666677778888';
    const { deliveries } = twilioCall(callSid, Date.now() - 120_000);
    for (const parameters of deliveries) {
      const signature = twilio.getExpectedTwilioSignature(authToken, connection.webhookUrl, parameters);
      expect(twilio.validateRequest(authToken, signature, connection.webhookUrl, parameters)).toBe(true);
      const answer = await post(connection.webhookUrl, formBody(parameters), {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
      });
      taken(answer);
    }
    const call = await readCall('twilio', callSid, (c) => c.recordingUrl !== null && c.endedAt !== null);
    expect(call).toMatchObject({ provider: 'twilio', agentId: 'main line', direction: 'inbound', durationMs: 60_000, status: 'completed' });
    expect(call.recordingUrl).toContain(`RE${callSid.slice(2)}`);
    const tampered = deliveries[3] as Record<string, string>;
    const signature = twilio.getExpectedTwilioSignature(authToken, connection.webhookUrl, tampered);
    const refused = await post(connection.webhookUrl, formBody({ ...tampered, CallDuration: '1' }), {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
    });
    expect(refused.status).toBe(401);
  });

  it('Vapi: server messages signed with the HMAC credential read back with their turn latencies and cost', async () => {
    const secretKey = 'vapi_hmac_secret_7d2e4b9c';
    const { connection } = await connect({ provider: 'vapi', name: 'orders', credentials: { type: 'hmac', secretKey } });
    const { deliveries } = vapiCall('call_it_vapi_77', Date.now() - 120_000);
    for (const delivery of deliveries) {
      const body = JSON.stringify(delivery);
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = createHmac('sha256', secretKey).update(`${timestamp}.${body}`).digest('hex');
      const answer = await post(connection.webhookUrl, body, { 'x-signature': signature, 'x-timestamp': timestamp });
      taken(answer);
    }
    const call = await readCall('vapi', 'call_it_vapi_77', (c) => c.summary !== null && c.turns.length === 2);
    expect(call).toMatchObject({ provider: 'vapi', agentId: 'asst_7d2e4b9c', costUsd: 0.1184, success: true, durationMs: 12_400 });
    expect(call.turns.map((t) => t.latency)).toEqual([
      { asrMs: 180, llmMs: 421, ttsMs: 190, totalMs: 1_041 },
      { asrMs: 160, llmMs: 380, ttsMs: 210, totalMs: 990 },
    ]);
  });

  it('ElevenLabs: post-call webhooks the SDK’s constructEvent accepts read back as the conversation', async () => {
    const secret = 'wsec_it_5d8c1f0a9b7e6d4c3b2a';
    const { connection } = await connect({ provider: 'elevenlabs', name: 'receptionist', credentials: { secret } });
    const { deliveries } = elevenLabsConversation('conv_it_01jx8k', Date.now() - 120_000);
    const sdk = new ElevenLabsClient({ apiKey: 'unused' }).webhooks;
    for (const delivery of deliveries) {
      const body = JSON.stringify(delivery);
      const timestamp = Math.floor(Date.now() / 1000);
      const header = `t=${timestamp},v0=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
      await expect(sdk.constructEvent(body, header, secret)).resolves.toMatchObject({ type: delivery.type });
      const answer = await post(connection.webhookUrl, body, { 'elevenlabs-signature': header });
      taken(answer);
    }
    const call = await readCall('elevenlabs', 'conv_it_01jx8k', (c) => c.summary !== null && c.recordingUrl !== null);
    expect(call).toMatchObject({
      provider: 'elevenlabs',
      agentId: 'agent_el_receptionist',
      durationMs: 42_000,
      costUsd: 0.0936,
      success: true,
      toolCallCount: 1,
    });
    expect(call.transcript).toHaveLength(6);
  });

  it('Bland: the call webhook signed with the signing secret reads back with its price and transcript', async () => {
    const secret = 'bland_whsec_it_91c2d3e4f5';
    const { connection } = await connect({ provider: 'bland', name: 'renewals', credentials: { secret } });
    const { delivery } = blandCall('a1b2c3d4-0000-4000-8000-00000000b1a0', Date.now() - 120_000);
    const body = JSON.stringify(delivery);
    const answer = await post(connection.webhookUrl, body, { 'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex') });
    taken(answer);
    const call = await readCall('bland', 'a1b2c3d4-0000-4000-8000-00000000b1a0', (c) => c.summary !== null);
    expect(call).toMatchObject({ provider: 'bland', agentId: 'pw_3c9a7e21', direction: 'outbound', durationMs: 95_000, costUsd: 0.1425 });
    expect(call.transcript.map((s) => s.speaker)).toEqual(['agent', 'customer', 'agent', 'customer']);
  });

  it('Standard Webhooks: our envelopes signed by the standardwebhooks library with the generated secret', async () => {
    const { connection, secret } = await connect({ provider: 'standard-webhooks', name: 'in-house bot' });
    const startedAt = new Date(Date.now() - 60_000);
    const call = { provider_call_id: 'sw_call_1', agent_id: 'bot_inhouse' };
    const body = JSON.stringify([
      { type: 'call.started', version: CURRENT_EVENT_VERSION, occurred_at: startedAt.toISOString(), call, data: {} },
      {
        type: 'call.ended',
        version: CURRENT_EVENT_VERSION,
        occurred_at: new Date(startedAt.getTime() + 30_000).toISOString(),
        call,
        data: { duration_ms: 30_000 },
      },
    ]);
    const at = new Date();
    const headers = {
      'webhook-id': 'msg_it_0001',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret as string).sign('msg_it_0001', at, body),
    };
    const answer = await post(connection.webhookUrl, body, headers);
    expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200, body: { ok: true, duplicate: false } });
    expect(answer.body.events).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
    const retried = await post(connection.webhookUrl, body, headers);
    expect(retried, JSON.stringify(retried.body)).toMatchObject({ status: 200, body: { duplicate: true } });
    const read = await readCall('standard-webhooks', 'sw_call_1', (c) => c.endedAt !== null);
    expect(read).toMatchObject({ agentId: 'bot_inhouse', durationMs: 30_000 });
  });

  it('rotation keeps the previous credentials verifying through the overlap; a disabled connection is refused', async () => {
    const { connection } = await connect({ provider: 'bland', name: 'rotating', credentials: { secret: 'bland_old_secret_01' } });
    for (const misfit of [{}, { credentials: { apiKey: 'a_retell_api_key_01' } }, { overlapSeconds: null }])
      expect(await api('POST', `/providers/${connection.id}/rotate`, misfit)).toMatchObject({
        status: 'overlapSeconds' in misfit ? 400 : 409,
        body: { ok: false, code: 'overlapSeconds' in misfit ? 'VALIDATION_ERROR' : 'CREDENTIALS_MISMATCH' },
      });
    const rotated = await api('POST', `/providers/${connection.id}/rotate`, { credentials: { secret: 'bland_new_secret_02' }, overlapSeconds: 600 });
    expect(rotated).toMatchObject({ status: 200, body: { ok: true, secret: null, connection: { previousCredentialsValidUntil: expect.any(String) } } });
    const send = (secret: string, callId: string) => {
      const body = JSON.stringify(blandCall(callId, Date.now()).delivery);
      return post(connection.webhookUrl, body, { 'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex') });
    };
    expect((await send('bland_old_secret_01', 'rot-1')).status).toBe(200);
    expect((await send('bland_new_secret_02', 'rot-2')).status).toBe(200);
    expect((await send('bland_other_secret_3', 'rot-3')).status).toBe(401);

    expect((await api('POST', `/providers/${connection.id}/disable`)).body).toMatchObject({ connection: { status: 'disabled' } });
    expect(await send('bland_new_secret_02', 'rot-4')).toMatchObject({ status: 403, body: { ok: false, code: 'FORBIDDEN' } });
    expect((await api('POST', `/providers/${connection.id}/enable`)).body).toMatchObject({ connection: { status: 'active' } });
    expect((await send('bland_new_secret_02', 'rot-5')).status).toBe(200);
  });

  // Seven CLI processes, each loading the CLI cold: seconds apiece on a busy machine.
  it('the CLI connects, lists, rotates, disables and deletes, the credentials read from a file', async () => {
    // Spawned without blocking: this process is the server the CLI talks to.
    const run = async (args: string[]): Promise<string> => {
      const { stdout } = await promisify(execFile)(process.execPath, [EARSHOT_CLI, 'providers', ...args, '--url', earshot.origin, '--json'], {
        env: { ...process.env, EARSHOT_API_KEY: tenant.apiKey },
        encoding: 'utf8',
      });
      return stdout;
    };
    const cli = async <T>(args: string[]): Promise<T> => JSON.parse(await run(args)) as T;
    const folder = testFolder('earshot-providers-');
    const credentials = join(folder, 'twilio.json');
    writeFileSync(credentials, JSON.stringify({ authToken: 'cli_twilio_token_0123456789' }));
    const created = await cli<Issued>(['connect', 'twilio', '--name', 'cli line', '--credentials-file', credentials]);
    expect(created.connection).toMatchObject({ provider: 'twilio', name: 'cli line', status: 'active' });
    const { id } = created.connection;
    // A list answers NDJSON, one connection a line.
    const listed = (await run(['list', '--provider', 'twilio'])).trim().split('\n');
    expect(listed.map((line) => (JSON.parse(line) as ProviderConnection).id)).toContain(id);
    writeFileSync(credentials, JSON.stringify({ authToken: 'cli_twilio_token_rotated_000' }));
    const rotated = await cli<Issued>(['rotate', id, '--credentials-file', credentials, '--overlap', '1h']);
    expect(rotated.connection.previousCredentialsValidUntil).not.toBeNull();
    expect(await cli<ProviderConnection>(['disable', id])).toMatchObject({ id, status: 'disabled' });
    expect(await cli<{ id: string }>(['delete', id])).toMatchObject({ ok: true, id });
    const sw = await cli<Issued>(['connect', 'standard-webhooks', '--name', 'cli bot']);
    expect(sw.secret).toMatch(/^whsec_/);
  }, 240_000);
});
