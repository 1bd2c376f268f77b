import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoTraffic, sendDemoTraffic } from '@earshot/cli';
import { startEarshot, waitUntilCaughtUp, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { ConsoleBrowser, describeViolations } from './console-browser';

// The console against a real Earshot seeded by the demo traffic generator, checked against the API's own answers.

let earshot: TestEarshot;
let tenant: EarshotTenant;
let browser: ConsoleBrowser;
let context: BrowserContext;
let page: Page;

async function api<T>(path: string, init: RequestInit = {}, key = tenant.apiKey): Promise<{ status: number; body: T }> {
  const response = await fetch(`${earshot.origin}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function seed(calls: number, seedNumber: number): Promise<void> {
  const traffic = generateDemoTraffic({ seed: seedNumber, calls, now: Date.now() });
  await sendDemoTraffic({ url: earshot.origin, apiKey: tenant.apiKey, webhookSecret: tenant.webhookSecret, tenantId: tenant.id }, traffic, {
    eventsPerSecond: 10_000,
  });
  await waitUntilCaughtUp(earshot.runtime.database(), earshot.runtime.log());
}

/** Opens a console page, waits for its content, checks accessibility and saves a screenshot. */
async function visit(path: string, ready: string, name: string): Promise<void> {
  await page.goto(`${earshot.origin}/console${path}`);
  await page.locator(ready).first().waitFor({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  const violations = await browser.axe(page);
  expect(describeViolations(violations), `axe on ${path}`).toEqual([]);
  await browser.screenshot(page, name);
}

beforeAll(async () => {
  earshot = await startEarshot('console');
  tenant = await earshot.createTenant('Console Voice');
  await seed(30, 27);
  browser = await ConsoleBrowser.launch(earshot.origin);
  context = await browser.context();
  page = await context.newPage();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await earshot?.stop();
});

describe('the console', () => {
  it('refuses a bad key with the API’s reason, then signs in with the tenant’s key', async () => {
    await page.goto(`${earshot.origin}/console`);
    await page.getByLabel('API key').fill('ear_live_notarealkey');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/malformed|checksum/);
    expect(describeViolations(await browser.axe(page))).toEqual([]);
    await browser.screenshot(page, 'sign-in');
    await page.getByLabel('API key').fill(tenant.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });

  it('signs in from the link npm start prints (#key=…), and the key leaves the address', async () => {
    const other = await (await browser.context()).newPage();
    await other.goto(`${earshot.origin}/console#key=${tenant.apiKey}`);
    await other.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(other.url()).not.toContain(tenant.apiKey);
    await other.context().close();
  });

  it('overview: the calls in the range as the metrics API counts them, the p95 target line and every agent', async () => {
    await visit('/?range=24h', '[data-testid=slowest-agents]', 'overview');
    const shown = Number((await page.getByTestId('kpi-calls').locator('.value').textContent())?.replaceAll(',', ''));
    const to = new Date(Math.ceil(Date.now() / 60_000) * 60_000);
    const from = new Date(to.getTime() - 86_400_000);
    const metric = await api<{ points: { value: number | null }[] }>(
      `/metrics?name=calls.total&interval=15m&from=${from.toISOString()}&to=${to.toISOString()}`,
    );
    expect(shown).toBe(metric.body.points.reduce((sum, p) => sum + (p.value ?? 0), 0));
    expect(shown).toBeGreaterThan(0);
    await expect(page.getByText('p95 target 800 ms').first().isVisible()).resolves.toBe(true);
    const calls = await api<{ items: { agentId: string }[] }>(`/calls?limit=200&from=${from.toISOString()}`);
    const agents = [...new Set(calls.body.items.map((c) => c.agentId))].sort();
    const rows = await page.getByTestId('slowest-agents').locator('tbody tr td:first-child').allTextContents();
    expect(rows.sort()).toEqual(agents);
  });

  it('calls: the first page is the API’s first page, and the agent filter narrows it', async () => {
    await visit('/calls', '[data-testid=call-row]', 'calls');
    const since = new Date(Math.ceil(Date.now() / 60_000) * 60_000 - 86_400_000).toISOString();
    const first = await api<{ items: { id: string; agentId: string }[]; nextCursor: string | null }>(`/calls?limit=50&from=${since}`);
    await expect(page.getByTestId('call-row').count()).resolves.toBe(first.body.items.length);
    const hrefs = await page
      .getByTestId('call-row')
      .locator('td:first-child a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(first.body.items.map((c) => `/console/calls/${c.id}`));
    const agent = first.body.items[0]?.agentId ?? '';
    await page.getByLabel('Agent').selectOption(agent);
    await page.waitForURL(/agent=/);
    const filtered = await api<{ items: unknown[] }>(`/calls?limit=50&from=${since}&agentId=${agent}`);
    await expect.poll(() => page.getByTestId('call-row').count()).toBe(filtered.body.items.length);
  });

  it('call detail: every turn’s stages as the API reports them, and the transcript', async () => {
    const list = await api<{ items: { id: string; turnCount: number }[] }>('/calls?status=completed&limit=50');
    const id = list.body.items.find((c) => c.turnCount >= 2)?.id ?? '';
    const call = await api<{
      call: { turns: { turnId: string; latency: { asrMs: number; llmMs: number; ttsMs: number; totalMs: number } }[]; transcript: { text: string }[] };
    }>(`/calls/${id}`);
    await visit(`/calls/${id}`, '[data-testid=turn]', 'call-detail');
    const turns = page.getByTestId('turn');
    await expect(turns.count()).resolves.toBe(call.body.call.turns.length);
    for (const [i, turn] of call.body.call.turns.entries()) {
      const row = turns.nth(i);
      await expect(row.getAttribute('data-turn-id')).resolves.toBe(turn.turnId);
      for (const [stage, ms] of [
        ['stt', turn.latency.asrMs],
        ['llm', turn.latency.llmMs],
        ['tts', turn.latency.ttsMs],
      ] as const) {
        await expect(row.locator(`[data-stage=${stage}]`).getAttribute('data-ms')).resolves.toBe(String(ms));
      }
    }
    // End-of-utterance is not reported yet: named as such, not drawn as zero.
    await expect(page.getByText('End of utterance (not reported)').isVisible()).resolves.toBe(true);
    const transcript = await page.getByTestId('transcript').textContent();
    for (const segment of call.body.call.transcript) expect(transcript).toContain(segment.text);
  });

  it('live: events arrive over the WebSocket as the demo sends them, and pause holds them', async () => {
    await visit('/live', '[data-testid=stream-state]:text("Live")', 'live-waiting');
    await seed(2, 28);
    await page.getByTestId('event-row').first().waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('event-row').count()).resolves.toBeGreaterThan(5);
    await page.getByRole('button', { name: 'Pause' }).click();
    const paused = await page.getByTestId('event-row').count();
    await seed(1, 29);
    await page.getByText(/new events held/).waitFor();
    await expect(page.getByTestId('event-row').count()).resolves.toBe(paused);
    await page.getByRole('button', { name: 'Resume' }).click();
    expect(describeViolations(await browser.axe(page))).toEqual([]);
    await browser.screenshot(page, 'live');
  });

  it('metrics: a catalogue metric as p50/p95/p99, and a drag zooms in', async () => {
    await visit('/metrics?metric=latency.total_ms&range=24h', '.chart canvas', 'metrics');
    const box = await page.locator('.chart .u-over').boundingBox();
    if (!box) throw new Error('no chart');
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForURL(/from=.*to=/);
    await page.getByRole('button', { name: 'Reset zoom' }).waitFor();
  });

  it('alerts: a rule created in the form is the API’s, and disabling it sticks', async () => {
    await visit('/alerts', 'h1:text("Alerts")', 'alerts');
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByLabel('Name').fill('Console p95 rule');
    await page.getByLabel('Threshold').fill('900');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.getByTestId('rule-row').filter({ hasText: 'Console p95 rule' }).waitFor();
    const rules = await api<{ items: { id: string; name: string; metric: string; threshold: number; enabled: boolean }[] }>('/alerts/rules');
    const rule = rules.body.items.find((r) => r.name === 'Console p95 rule');
    expect(rule).toMatchObject({ metric: 'latency.total_ms.p95', threshold: 900, enabled: true });
    await page.getByTestId('rule-row').filter({ hasText: 'Console p95 rule' }).getByRole('button', { name: 'Disable' }).click();
    await expect
      .poll(async () => {
        const again = await api<{ items: { id: string; enabled: boolean }[] }>('/alerts/rules');
        return again.body.items.find((r) => r.id === rule?.id)?.enabled;
      })
      .toBe(false);
    await browser.screenshot(page, 'alerts');
  });

  it('incidents: the timeline is the API’s incident, and acknowledging it is recorded', async () => {
    const created = await api<{ id: string }>('/incidents', {
      method: 'POST',
      body: JSON.stringify({ title: 'Console test: TTS timeouts', severity: 'high', description: 'Callers hear silence.', openedBy: 'test' }),
    });
    expect(created.status).toBe(201);
    await visit(`/incidents/${created.body.id}`, '[data-testid=incident-timeline]', 'incidents');
    const timeline = page.getByTestId('incident-timeline');
    await expect(timeline.textContent()).resolves.toContain('Opened by test');
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await expect
      .poll(async () =>
        (await api<{ items: { id: string; status: string; notes: unknown[] }[] }>('/incidents')).body.items.find((i) => i.id === created.body.id),
      )
      .toMatchObject({ status: 'acknowledged', notes: [expect.objectContaining({ note: expect.stringContaining('Acknowledged') })] });
    await timeline.getByText(/^Note from/).waitFor();
    const incident = (await api<{ items: { id: string; notes: unknown[] }[] }>('/incidents')).body.items.find((i) => i.id === created.body.id);
    // Started, opened, and one line per note.
    await expect(timeline.locator('li').count()).resolves.toBe(2 + (incident?.notes.length ?? 0));
    await browser.screenshot(page, 'incidents');
  });

  it('deployments: the API’s releases and the impact report of the first', async () => {
    const deployments = await api<{ items: { id: string }[] }>('/deployments');
    expect(deployments.body.items.length).toBeGreaterThan(0);
    const impact = await api<{ metrics: unknown[] }>(`/deployments/${encodeURIComponent(deployments.body.items[0]?.id ?? '')}/impact`);
    await visit('/deployments', '[data-testid=impact]', 'deployments');
    await expect(page.getByTestId('deployments').locator('tbody tr').count()).resolves.toBe(deployments.body.items.length);
    await expect(page.getByTestId('impact').locator('.bar-compare').count()).resolves.toBe(impact.body.metrics.length * 2);
  });

  it('settings: a key created here works, its secret is shown once, and revoking it refuses it and its sign-in', async () => {
    await visit('/settings', '[data-testid=key-row]', 'settings');
    await page.getByRole('button', { name: 'New key' }).click();
    await page.getByLabel('Name').fill('console-made');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^ear_live_/);
    await expect(api('/calls?limit=1', {}, secret).then((r) => r.status)).resolves.toBe(200);
    await browser.screenshot(page, 'settings-key-created');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('secret-value').count()).resolves.toBe(0);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke console-made' }).click();
    await expect
      .poll(async () => (await api<{ items: { name: string; status: string }[] }>('/keys')).body.items.find((k) => k.name === 'console-made')?.status)
      .toBe('revoked');
    await expect.poll(() => api('/calls?limit=1', {}, secret).then((r) => r.status), { timeout: 20_000 }).toBe(401);

    const fresh = await (await browser.context()).newPage();
    await fresh.goto(`${earshot.origin}/console`);
    await fresh.getByLabel('API key').fill(secret);
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    await expect(fresh.getByRole('alert').textContent()).resolves.toMatch(/revoked/i);
    await fresh.context().close();
  });

  it('looks right in the dark theme too', async () => {
    const dark = await (await browser.context({ colorScheme: 'dark' })).newPage();
    await dark.goto(`${earshot.origin}/console/?range=24h#key=${tenant.apiKey}`);
    await dark.getByTestId('slowest-agents').waitFor();
    await dark.waitForLoadState('networkidle');
    expect(describeViolations(await browser.axe(dark))).toEqual([]);
    await browser.screenshot(dark, 'overview-dark');
    const call = (await api<{ items: { id: string; turnCount: number }[] }>('/calls?status=completed&limit=20')).body.items.find((c) => c.turnCount >= 2);
    await dark.goto(`${earshot.origin}/console/calls/${call?.id}`);
    await dark.getByTestId('turn').first().waitFor();
    expect(describeViolations(await browser.axe(dark))).toEqual([]);
    await browser.screenshot(dark, 'call-detail-dark');
    await dark.context().close();
  });

  it('first load is at most 250 KB of JavaScript gzipped', async () => {
    const html = await (await fetch(`${earshot.origin}/console`)).text();
    const scripts = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    let gzipped = 0;
    for (const src of scripts) gzipped += gzipSync(Buffer.from(await (await fetch(new URL(src, earshot.origin))).arrayBuffer()), { level: 9 }).length;
    console.log(JSON.stringify({ console_first_load_js_gzip_bytes: gzipped, files: scripts.length }));
    expect(gzipped).toBeLessThanOrEqual(250 * 1024);
  });

  it('sent no request anywhere but this Earshot', () => {
    expect(browser.external).toEqual([]);
  });
});
