#!/usr/bin/env node
// Builds the console's bundle into dist/ unless dist/ was built from the same sources.
// It runs after `npm install` (postinstall) and again when `earshot serve` starts, so a fresh
// clone and a checkout whose console sources changed both serve the bundle of their sources.
// A build goes to a folder of its own and is then renamed into place, so processes starting
// together never serve a half-written bundle.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const STAMP = 'build-stamp.txt';
const INPUTS = ['index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'src'];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => files(join(root, input)))) {
    if (/\.test\.tsx?$/.test(file)) continue;
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const stampOf = (folder) => {
  try {
    return readFileSync(join(folder, STAMP), 'utf8');
  } catch {
    return null;
  }
};

const wanted = sourceHash();
if (stampOf(dist) === wanted) process.exit(0);

let vite;
try {
  vite = join(dirname(createRequire(join(root, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
} catch {
  // An install without development dependencies (the container image) has no Vite: the server says the console is not built.
  console.log('[console] Vite is not installed, so the console is not built (npm install with development dependencies builds it).');
  process.exit(0);
}

const out = join(root, `dist.${process.pid}`);
console.log('[console] building the console…');
const started = Date.now();
const build = spawnSync(process.execPath, [vite, 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  rmSync(out, { recursive: true, force: true });
  console.error('[console] the console build failed (see above).');
  process.exit(1);
}
writeFileSync(join(out, STAMP), wanted);
// Another process may have put the same build in place meanwhile; the newest rename wins and either is whole.
const old = join(root, `dist.old.${process.pid}`);
try {
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(out, dist);
} catch (error) {
  if (stampOf(dist) !== wanted) throw error;
  rmSync(out, { recursive: true, force: true });
}
rmSync(old, { recursive: true, force: true });
console.log(`[console] built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
