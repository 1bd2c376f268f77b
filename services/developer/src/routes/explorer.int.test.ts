import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, CHROMIUM_ARGS, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { EXPLORER_PATH } from './description';

const SCREENSHOTS = 'reports/explorer';

interface Description {
  tags: { name: string }[];
  paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
}

let earshot: TestEarshot;
let tenant: EarshotTenant;
let browser: Browser;
let page: Page;
let description: Description;
/** Every URL the page asked for, and those outside this server, which are refused as if offline. */
const requested: string[] = [];
const outside: string[] = [];

beforeAll(async () => {
  const executablePath = chromiumPath();
  earshot = await startEarshot('explorer');
  tenant = await earshot.createTenant();
  description = (await (await fetch(`${earshot.origin}/openapi.json`)).json()) as Description;
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on('request', (request) => requested.push(request.url()));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${earshot.origin}/`) || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort('internetdisconnected');
  });
  await page.goto(`${earshot.origin}${EXPLORER_PATH}`);
  await page.locator('.opblock-tag-section').first().waitFor();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await earshot?.stop();
});

describe('GET /developers/explorer', () => {
  it('carries Earshot’s name, mark and favicon, not Swagger’s or Fastify’s', async () => {
    expect(await page.title()).toBe('Earshot API explorer');
    const logo = page.locator('#swagger-ui .topbar .topbar-wrapper a.link img');
    const source = (await logo.getAttribute('src')) ?? '';
    expect(source.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const svg = Buffer.from(source.slice(source.indexOf(',') + 1), 'base64').toString('utf8');
    expect(svg).toContain('aria-label="Earshot API explorer"');
    expect(svg.toLowerCase()).not.toContain('fastify');
    await expect(page.locator('.info .title').first().textContent()).resolves.toContain('Earshot API');

    const favicon = await page.locator('link[rel="icon"]').getAttribute('href');
    const icon = await fetch(new URL(favicon ?? '', page.url()));
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toContain('#4f46e5');
    await expect(page.locator('.earshot-links a').allTextContents()).resolves.toEqual(['OpenAPI JSON', 'Postman collection']);
  });

  it('groups the operations under their tags, in the document’s order', async () => {
    const expected = new Map(description.tags.map((tag) => [tag.name, [] as string[]]));
    for (const operations of Object.values(description.paths)) {
      for (const { operationId, tags } of Object.values(operations)) {
        for (const tag of tags) expected.get(tag)?.push(`operations-${tag}-${operationId}`);
      }
    }
    const shown = new Map<string, string[]>();
    for (const section of await page.locator('.opblock-tag-section').all()) {
      const tag = (await section.locator('h3.opblock-tag').getAttribute('data-tag')) ?? '';
      const ids = await Promise.all((await section.locator('.opblock').all()).map(async (operation) => (await operation.getAttribute('id')) ?? ''));
      shown.set(tag, ids.sort());
    }
    expect([...shown.keys()]).toEqual([...expected.keys()]);
    expect(shown).toEqual(new Map([...expected].map(([tag, ids]) => [tag, ids.sort()])));
    expect([...shown.values()].flat().length).toBeGreaterThan(40);
    expect(shown.has('default')).toBe(false);
  });

  it('sends a request with a pasted key that succeeds, and never leaves this server', async () => {
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    // The API key's scheme is the first of the two (the operator token's is the second).
    const keyScheme = page.locator('.auth-container').first();
    await keyScheme.locator('input').fill(tenant.apiKey);
    await keyScheme.locator('button.authorize').click();
    await page.locator('.modal-ux button.btn-done').first().click();

    const operation = page.locator('#operations-Metrics-getRealtime');
    await operation.locator('.opblock-summary').first().click();
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/v1/realtime'));
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, live: { concurrentCalls: 0 } });
    await expect(operation.locator('.live-responses-table tbody .response-col_status').first().textContent()).resolves.toContain('200');

    expect(outside).toEqual([]);
    expect(requested.some((url) => url.endsWith('/api/v1/realtime'))).toBe(true);
    expect(requested.filter((url) => url.includes(`${EXPLORER_PATH}/static/`)).length).toBeGreaterThan(3);

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOTS, 'explorer.png') });
    await operation.locator('.live-responses-table').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'explorer-try-it.png') });
  });
});
