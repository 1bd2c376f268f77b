import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath, CHROMIUM_ARGS } from '@earshot/testing';

const SCREENSHOTS = 'reports/console';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Chromium pointed at one Earshot, recording every request that goes anywhere else. */
export class ConsoleBrowser {
  readonly external: string[] = [];
  private constructor(
    private readonly browser: Browser,
    readonly origin: string,
  ) {}

  static async launch(origin: string): Promise<ConsoleBrowser> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    return new ConsoleBrowser(await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS }), origin);
  }

  async context(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<BrowserContext> {
    // bypassCSP lets axe-core be injected; the page's own policy is checked by what it loads (see `external`).
    const context = await this.browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: options.colorScheme ?? 'light', bypassCSP: true });
    const ours = new URL(this.origin);
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol === 'data:' || url.protocol === 'blob:') return;
      if (url.hostname !== ours.hostname || url.port !== ours.port) this.external.push(request.url());
    });
    context.on('weberror', (error) => this.external.push(`page error: ${error.error().message}`));
    return context;
  }

  /** The page's serious and critical accessibility violations, by axe-core. */
  async axe(page: Page): Promise<AxeViolation[]> {
    await page.addScriptTag({ content: axeSource });
    // A string, since this file compiles without the DOM's types.
    const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((result) => result.violations)');
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  async screenshot(page: Page, name: string): Promise<string> {
    const path = `${SCREENSHOTS}/${name}.png`;
    await page.screenshot({ path, fullPage: true });
    return path;
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

/** A one-line summary of violations for an assertion message. */
export const describeViolations = (violations: AxeViolation[]): string[] =>
  violations.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
