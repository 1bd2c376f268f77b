import { describe, expect, it } from 'vitest';
import { callEvents, client, eventually, unique } from './target.js';

describe('every resource', () => {
  it('[every-resource] calls each resource of sdk/README.md once and reads its answer as the model', async () => {
    const earshot = client();
    const providerCallId = unique('res');
    await earshot.ingest.send(callEvents(providerCallId, 'agent_resources'));
    const call = await eventually(async () => (await earshot.calls.list({ agentId: 'agent_resources' }).firstPage()).items[0], 'a call');
    expect((await earshot.calls.retrieve(call.id)).providerCallId).toBe(providerCallId);

    const outcome = await earshot.outcomes.create({ callId: call.id, type: 'appointment_booked', revenueUsd: 80 });
    expect((await earshot.outcomes.list({ callId: call.id }).firstPage()).items).toMatchObject([{ id: outcome.id, revenueUsd: 80 }]);

    const incident = await earshot.incidents.create({ title: 'Slow answers', severity: 'high', affectedAgents: ['agent_resources'] });
    await earshot.incidents.update(incident.id, { status: 'investigating', note: 'looking at the LLM latency' });
    expect((await earshot.incidents.list().toArray()).find((i) => i.id === incident.id)).toMatchObject({ status: 'investigating', severity: 'high' });

    expect((await earshot.alerts.list().firstPage()).items).toEqual(expect.any(Array));
    expect((await earshot.alerts.notifications().firstPage()).items).toEqual(expect.any(Array));
    expect(await earshot.alerts.webhook.set({ url: 'https://alerts.example.com/earshot' })).toMatchObject({ url: 'https://alerts.example.com/earshot' });
    expect(await earshot.alerts.webhook.get()).toMatchObject({ url: 'https://alerts.example.com/earshot', enabled: true });

    const rule = await earshot.alertRules.create({ name: 'p95 too slow', metric: 'latency.total_ms.p95', comparison: 'gt', threshold: 1_500 });
    expect(await earshot.alertRules.retrieve(rule.id)).toMatchObject({ id: rule.id, threshold: 1_500, comparison: 'gt' });
    await earshot.alertRules.update(rule.id, { threshold: 2_000 });
    expect((await earshot.alertRules.list().toArray()).find((r) => r.id === rule.id)).toMatchObject({ threshold: 2_000 });
    await earshot.alertRules.delete(rule.id);
    expect((await earshot.alertRules.list().toArray()).map((r) => r.id)).not.toContain(rule.id);

    const deployment = await earshot.deployments.create({ agent: 'agent_resources', version: 'v2', previousVersion: 'v1' });
    expect(await earshot.deployments.retrieve(deployment.id)).toMatchObject({ id: deployment.id, version: 'v2', previousVersion: 'v1' });
    expect((await earshot.deployments.list({ agent: 'agent_resources' }).firstPage()).items[0]).toMatchObject({ id: deployment.id });
    const impact = await earshot.deployments.impact(deployment.id, { windowMinutes: 60 });
    expect(impact.deployment.id).toBe(deployment.id);
    expect(Array.isArray(impact.metrics)).toBe(true);

    const catalogue = await earshot.metrics.catalogue();
    expect(catalogue.map((m) => m.name)).toContain('calls.total');
    const series = await earshot.metrics.series({ name: 'calls.total', interval: '1h' });
    expect([series.name, series.interval, Array.isArray(series.points)]).toEqual(['calls.total', '1h', true]);
    expect((await earshot.realtime.retrieve()).concurrentCalls).toBeGreaterThanOrEqual(0);
    expect((await earshot.usage.retrieve()).period.currency).toMatch(/^[A-Za-z]{3}$/);
    expect((await earshot.invoices.list().firstPage()).items).toEqual(expect.any(Array));
    expect((await earshot.audit.list({ action: 'deployment.recorded' }).firstPage()).items[0]).toMatchObject({ action: 'deployment.recorded' });

    const key = await earshot.keys.create({ name: unique('ci'), scopes: ['calls:read', 'metrics:read'] });
    expect(key.secret).toMatch(/^ear_live_/);
    expect(await earshot.keys.retrieve(key.key.id)).toMatchObject({ id: key.key.id, scopes: ['calls:read', 'metrics:read'] });
    expect((await earshot.keys.list().toArray()).map((k) => k.id)).toContain(key.key.id);
    const rotated = await earshot.keys.rotate(key.key.id, { overlapSeconds: 60 });
    expect(rotated.secret).not.toBe(key.secret);
    expect(await earshot.keys.revoke(key.key.id)).toMatchObject({ id: key.key.id, status: 'revoked' });

    const line = await earshot.providers.connect({ provider: 'twilio', name: unique('line'), credentials: { authToken: 'sdk_twilio_token_0123456789' } });
    expect(line).toMatchObject({ secret: null, connection: { provider: 'twilio', status: 'active', webhookUrl: expect.stringContaining(line.connection.id) } });
    expect(await earshot.providers.retrieve(line.connection.id)).toMatchObject({ id: line.connection.id, previousCredentialsValidUntil: null });
    expect((await earshot.providers.list({ provider: 'twilio' }).toArray()).map((c) => c.id)).toContain(line.connection.id);
    const rotatedLine = await earshot.providers.rotate(line.connection.id, { credentials: { authToken: 'sdk_twilio_token_rotated_0' }, overlapSeconds: 60 });
    expect(rotatedLine.connection.previousCredentialsValidUntil).toEqual(expect.any(String));
    expect(await earshot.providers.disable(line.connection.id)).toMatchObject({ status: 'disabled' });
    expect(await earshot.providers.enable(line.connection.id)).toMatchObject({ status: 'active' });
    expect(await earshot.providers.delete(line.connection.id)).toEqual({ ok: true, id: line.connection.id });
    const bot = await earshot.providers.connect({ provider: 'standard-webhooks', name: unique('bot') });
    expect(bot.secret).toMatch(/^whsec_/);

    // The old secret keeps verifying for an hour, so the suite's other signed requests still pass.
    const secret = await earshot.webhookSecret.rotate({ overlapSeconds: 3_600 });
    expect(secret.webhookSecret).toMatch(/^whsec_/);
    expect(await earshot.health.retrieve()).toMatchObject({ ok: true, database: { connected: true } });
    expect(await earshot.tenant.retrieve()).toMatchObject({ id: process.env.EARSHOT_TENANT_ID, status: 'active' });
  });
});
