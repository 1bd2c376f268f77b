import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A shell from Debian (zsh, fish) for the completion tests, installed with apt where it is missing, as the suite installs Chromium. */
export function debianShell(name: 'zsh' | 'fish'): string {
  const path = `/usr/bin/${name}`;
  if (existsSync(path)) return path;
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (command: string[]) =>
    execFileSync(command[0] ?? '', command.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run([...asRoot, 'apt-get', 'update']);
  run([...asRoot, 'apt-get', 'install', '-y', name]);
  if (!existsSync(path)) throw new Error(`apt-get installed ${name} but ${path} is still missing`);
  return path;
}
