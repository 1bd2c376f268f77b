import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, CHROMIUM_ARGS, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { EXPLORER_PATH } from './description';

let earshot: TestEarshot;
let tenant: EarshotTenant;
let browser: Browser;

beforeAll(async () => {
  const executablePath = chromiumPath();
  earshot = await startEarshot('explorer');
  tenant = await earshot.createTenant();
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await earshot?.stop();
});

describe('GET /developers/explorer', () => {
  it('lists the routes, sends a request with a pasted key that succeeds, and never leaves this server', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));

    await page.goto(`${earshot.origin}${EXPLORER_PATH}`);
    const operation = page.locator('#operations-default-get_api_v1_realtime, .opblock-get:has([data-path="/api/v1/realtime"])').first();
    await operation.waitFor();
    for (const path of ['/api/v1/calls', '/api/v1/calls/{id}', '/api/v1/outcomes', '/api/v1/webhooks/ingest', '/api/v1/metrics']) {
      await expect(page.locator(`[data-path="${path}"]`).first().isVisible()).resolves.toBe(true);
    }

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    // The API key's scheme is the first of the two (the operator token's is the second).
    const keyScheme = page.locator('.auth-container').first();
    await keyScheme.locator('input').fill(tenant.apiKey);
    await keyScheme.locator('button.authorize').click();
    await page.locator('.modal-ux button.btn-done').first().click();

    await operation.locator('.opblock-summary').first().click();
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/v1/realtime'));
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, live: { concurrentCalls: 0 } });
    await expect(operation.locator('.live-responses-table tbody .response-col_status').first().textContent()).resolves.toContain('200');

    const outside = requested.filter((url) => !url.startsWith(`${earshot.origin}/`) && !url.startsWith('data:'));
    expect(outside).toEqual([]);
    expect(requested.some((url) => url.endsWith('/api/v1/realtime'))).toBe(true);
  });
});
