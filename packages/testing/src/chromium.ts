import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, never a downloaded browser: installed with apt (as root, or by sudo without a password) where it is missing. */
export function chromiumPath(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (command: string[]) =>
    execFileSync(command[0] as string, command.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run([...asRoot, 'apt-get', 'update']);
  run([...asRoot, 'apt-get', 'install', '-y', 'chromium']);
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
  return CHROMIUM;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
