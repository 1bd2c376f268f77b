import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(new URL('../../..', import.meta.url).pathname, '.cache', 'python');

function python3(): string {
  for (const name of ['python3', 'python']) {
    try {
      execFileSync(name, ['--version'], { stdio: 'ignore' });
      return name;
    } catch {
      // Try the next name.
    }
  }
  throw new Error('Python 3 is required (python3 on PATH): the suite installs its Python tools into .cache/python/');
}

/** Waits for a lock folder (mkdir is atomic), so test files running side by side do not install into one environment at once. */
function locked<T>(dir: string, work: () => T): T {
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${lock} is held for over 10 minutes: remove it if no test run is installing`);
      execFileSync('sleep', ['0.5']);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** uv from PyPI: it makes an environment and installs into it in about a second of CPU, where venv and pip took 25 s or more. */
const UV = 'uv==0.13.9';

/** The environment `.cache/python/<name>`, made by `make` on first use and again when `requirements` change; its `bin` folder. */
function environment(name: string, requirements: readonly string[], make: (dir: string) => void): string {
  const dir = join(ROOT, name);
  const bin = join(dir, 'bin');
  const marker = join(dir, '.requirements');
  const wanted = `${requirements.join('\n')}\n`;
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return bin;
  mkdirSync(ROOT, { recursive: true });
  return locked(dir, () => {
    if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return bin;
    rmSync(dir, { recursive: true, force: true });
    make(dir);
    writeFileSync(marker, wanted);
    return bin;
  });
}

/** uv, installed with venv and pip into an environment of its own, once. */
function uv(): string {
  const bin = environment('uv', [UV], (dir) => {
    execFileSync(python3(), ['-m', 'venv', dir], { stdio: 'inherit' });
    execFileSync(join(dir, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', UV], { stdio: 'inherit' });
  });
  return join(bin, 'uv');
}

/**
 * A project-local virtual environment `.cache/python/<name>` holding
 * `requirements` (pip specifiers, or `-r <file>` / `-e <path>` pairs), made
 * with uv on first use and made again when the requirements change. Answers
 * the environment's `bin` folder.
 */
export function pythonTools(name: string, requirements: readonly string[]): string {
  return environment(name, requirements, (dir) => {
    const command = uv();
    // uv's download and build cache stays in the project too.
    const env = { ...process.env, UV_CACHE_DIR: join(ROOT, 'uv-cache') };
    execFileSync(command, ['venv', '--quiet', '--python', python3(), dir], { stdio: 'inherit', env });
    execFileSync(command, ['pip', 'install', '--quiet', '--python', join(dir, 'bin', 'python'), ...requirements], { stdio: 'inherit', env });
  });
}
