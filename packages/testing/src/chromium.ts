import { debianProgram } from './debian-package';

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, never a downloaded browser: installed with apt (as root, or by sudo without a password) where it is missing. */
export function chromiumPath(): string {
  return debianProgram('chromium', CHROMIUM);
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
