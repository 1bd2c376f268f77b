import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { removeCluster, stopPostgres } from '@earshot/db';
import { DemoCredentialsSchema, generateDemoTraffic, sendDemoTraffic } from '@earshot/cli';
import { cleanEnv, startEarshot } from '../test/e2e/earshot-process';
import type { Bench } from './run';

/**
 * `npm run bench -- startup [--calls N]`: the zero-setup path as a person meets
 * it. A fresh data directory: time from spawning `earshot serve` to /health
 * 200 (initdb included), a restart on the same data, then `earshot demo`'s
 * traffic at its default pace and how long after it finished GET /calls
 * shows every call.
 */
const bench: Bench = async ({ args, report }) => {
  const { values } = parseArgs({ args, options: { calls: { type: 'string', default: '200' } } });
  const calls = Number(values.calls);
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-bench-startup-'));
  const env = cleanEnv({ EARSHOT_DATA_DIR: dataDir });
  try {
    const ready = async () => {
      const started = performance.now();
      const earshot = await startEarshot('all', env);
      while ((await fetch(new URL('/health', earshot.url)).catch(() => undefined))?.status !== 200) await sleep(20);
      return { earshot, ms: Math.round(performance.now() - started) };
    };
    const first = await ready();
    report(`first start (fresh data directory, initdb included): ready in ${first.ms} ms`);
    await first.earshot.stop('SIGTERM');
    const second = await ready();
    report(`second start (same data): ready in ${second.ms} ms`);

    const demo = DemoCredentialsSchema.parse(JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')));
    const traffic = generateDemoTraffic({ seed: 1, calls, now: Date.now() });
    const summary = await sendDemoTraffic({ url: second.earshot.url, ...demo }, traffic);
    report(
      `demo: ${summary.envelopes} envelopes of ${calls} calls in ${summary.requests} requests, ${summary.seconds} s (${Math.round(summary.envelopes / summary.seconds)} envelopes/s), ${summary.rateLimited} rate-limited`,
    );
    const sent = performance.now();
    const listed = async () => {
      let total = 0;
      let cursor: string | null = null;
      do {
        const response = await fetch(new URL(`/api/v1/calls?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, second.earshot.url), {
          headers: { authorization: `Bearer ${demo.apiKey}` },
        });
        const page = (await response.json()) as { items: unknown[]; nextCursor: string | null };
        total += page.items.length;
        cursor = page.nextCursor;
      } while (cursor);
      return total;
    };
    while ((await listed()) < calls) await sleep(100);
    const caughtUpMs = Math.round(performance.now() - sent);
    report(`GET /calls showed all ${calls} calls ${caughtUpMs} ms after the demo finished (its outcomes go last)`);
    await second.earshot.stop('SIGTERM');
    return {
      firstStartMs: first.ms,
      restartMs: second.ms,
      calls,
      envelopes: summary.envelopes,
      demoSeconds: summary.seconds,
      rateLimited: summary.rateLimited,
      callsListedAfterDemoMs: caughtUpMs,
    };
  } finally {
    stopPostgres(dataDir);
    removeCluster(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }
};

export default bench;
