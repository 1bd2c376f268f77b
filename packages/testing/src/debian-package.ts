import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Held while installing, so test files running side by side (Chromium, zsh, fish) install one at a time. */
const INSTALL_LOCK = join(tmpdir(), 'earshot-apt.lock');

/**
 * A program from a Debian package, installed with apt (as root, or by sudo without a password) where it is missing.
 * apt refuses a second install at once ("Could not get lock") rather than waiting, so ours queue on a lock of their
 * own and wait on dpkg's for anything else running apt.
 */
export function debianProgram(pkg: string, path: string): string {
  if (existsSync(path)) return path;
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const apt = 'apt-get -o DPkg::Lock::Timeout=600';
  const install = `export DEBIAN_FRONTEND=noninteractive; test -e "$1" || { ${apt} update && ${apt} install -y "$2"; }`;
  const command = [...asRoot, 'flock', '-w', '900', INSTALL_LOCK, 'sh', '-c', install, 'sh', path, pkg];
  execFileSync(command[0] ?? 'flock', command.slice(1), { stdio: 'inherit' });
  if (!existsSync(path)) throw new Error(`apt-get installed ${pkg} but ${path} is still missing`);
  return path;
}
