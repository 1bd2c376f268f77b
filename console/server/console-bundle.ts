import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONSOLE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');

/**
 * Builds the bundle when it is missing or was built from other sources (the same script `npm install` runs),
 * in a child process so Vite never loads into the server. Resolves to whether a bundle is there to serve.
 */
export function ensureConsoleBundle(log: (line: string) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(CONSOLE_ROOT, 'scripts', 'build-once.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const relay = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) log(line.trim());
    };
    child.stdout.on('data', relay);
    child.stderr.on('data', relay);
    child.on('error', (error) => {
      log(`[console] could not run the console build: ${error.message}`);
      resolve(existsSync(join(CONSOLE_DIST, 'index.html')));
    });
    child.on('close', () => resolve(existsSync(join(CONSOLE_DIST, 'index.html'))));
  });
}
