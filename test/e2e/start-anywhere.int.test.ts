import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAlive, removeCluster } from '@earshot/db';
import { cleanEnv } from './earshot-process';

const checkout = new URL('../..', import.meta.url).pathname;

/** A process started in a group of its own, as a terminal or a supervisor starts `npm start`. */
interface Started {
  child: ChildProcess;
  url: string;
  output(): string;
}

function start(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1], output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

/** Where an instance said it takes OTLP/gRPC, printed just after the HTTP origin. */
async function grpcOrigin(started: Started): Promise<string | undefined> {
  const printed = () => /OTLP\/gRPC \(traces and metrics\) on (http:\/\/[\d.]+:\d+)/.exec(started.output())?.[1];
  for (let tries = 0; printed() === undefined && tries < 50; tries++) await sleep(100);
  return printed();
}

/** A signal to the whole group, and our ends of its pipes closed at once, as when the parent shell exits. */
function signalGroup(started: Started, signal: NodeJS.Signals): void {
  try {
    process.kill(-(started.child.pid ?? 0), signal);
  } catch {
    // The group has already exited.
  }
  started.child.stdout?.destroy();
  started.child.stderr?.destroy();
}

/** The postmaster of a data directory's cluster, from its lock file while that exists. */
function postmasterOf(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (processAlive(pid) && Date.now() < deadline) await sleep(100);
  return !processAlive(pid);
}

/**
 * The README's commands where a new user runs them: a checkout inside a
 * private (0700) folder, as `git clone` under /root or `mktemp -d` makes it,
 * and a second instance beside it on another private data directory. As
 * root, PostgreSQL runs as `postgres`, which cannot enter either folder.
 */
describe('start anywhere, stop clean', () => {
  let home: string;
  let clone: string;
  let otherData: string;

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'earshot-home-'));
    clone = join(home, 'earshot');
    // The checkout's own files (tracked, and new ones not ignored), and its installed packages by hard link.
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: checkout, encoding: 'utf8' }).split('\0').filter(Boolean);
    for (const file of files) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(join(checkout, file), join(clone, file), { verbatimSymlinks: true });
    }
    // What `npm install` leaves in workspaces too: packages it could not hoist, and the SDK's build (its `prepare`).
    const workspaces = [
      ...['packages', 'services'].flatMap((dir) => readdirSync(join(checkout, dir)).map((name) => `${dir}/${name}`)),
      'console',
      'sdk/typescript',
    ];
    const installed = ['node_modules', 'sdk/typescript/dist', ...workspaces.map((workspace) => `${workspace}/node_modules`)];
    for (const path of installed.filter((p) => existsSync(join(checkout, p)))) execFileSync('cp', ['-al', join(checkout, path), join(clone, path)]);
    otherData = mkdtempSync(join(tmpdir(), 'earshot-other-data-'));
  }, 120_000);

  afterAll(() => {
    for (const dataDir of [join(clone, '.data'), otherData]) removeCluster(dataDir);
    rmSync(home, { recursive: true, force: true });
    rmSync(otherData, { recursive: true, force: true });
  });

  it(`runs \`npm start\` in a 0700 folder and a second instance on another 0700 data directory side by side (as ${userInfo().username}), and a signal to each group stops its PostgreSQL`, async () => {
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(otherData).mode & 0o777).toBe(0o700);
    const env = cleanEnv({});
    const first = await start('npm', ['start'], clone, env);
    const second = await start(process.execPath, ['packages/cli/bin/earshot.js', 'serve'], clone, { ...env, EARSHOT_DATA_DIR: otherData });
    try {
      expect(first.url).not.toBe(second.url);
      // Each prints its own OTLP/gRPC port: 4317 or the next free one, never 4318, where OTLP/HTTP exporters send by default.
      const grpc = await Promise.all([first, second].map(grpcOrigin));
      const grpcPorts = grpc.map((origin) => Number(new URL(origin ?? 'http://none:1').port));
      expect(grpcPorts.every((port) => port >= 4317 && port !== 4318)).toBe(true);
      expect(grpc[0]).not.toBe(grpc[1]);
      for (const instance of [first, second]) expect((await fetch(new URL('/health', instance.url))).status).toBe(200);
      const postmasters = [postmasterOf(join(clone, '.data')), postmasterOf(otherData)];
      expect(postmasters.every((pid) => pid !== undefined && processAlive(pid))).toBe(true);
      expect(new Set(postmasters).size).toBe(2);
      // Nothing of ours was opened up for the postgres user.
      expect(statSync(home).mode & 0o777).toBe(0o700);
      expect(statSync(otherData).mode & 0o777).toBe(0o700);

      signalGroup(first, 'SIGTERM');
      signalGroup(second, 'SIGTERM');
      for (const pid of postmasters) expect(await gone(pid ?? 0, 30_000)).toBe(true);
    } finally {
      for (const instance of [first, second]) signalGroup(instance, 'SIGKILL');
    }
  }, 180_000);

  it('takes over the PostgreSQL a crashed instance left running, says so, and stops it at the next stop', async () => {
    const env = cleanEnv({ EARSHOT_DATA_DIR: otherData });
    const crashed = await start(process.execPath, ['packages/cli/bin/earshot.js', 'serve'], clone, env);
    const left = postmasterOf(otherData) ?? 0;
    signalGroup(crashed, 'SIGKILL');
    await sleep(200);
    expect(processAlive(left)).toBe(true);

    const next = await start(process.execPath, ['packages/cli/bin/earshot.js', 'serve'], clone, env);
    expect(next.output()).toMatch(new RegExp(`already running \\(pid ${left}, port \\d+\\); taking it over`));
    expect((await fetch(new URL('/health', next.url))).status).toBe(200);
    signalGroup(next, 'SIGINT');
    expect(await gone(left, 30_000)).toBe(true);
  }, 120_000);

  it('names the variable when an explicitly set port is taken', async () => {
    const holder = await start(process.execPath, ['packages/cli/bin/earshot.js', 'serve'], clone, cleanEnv({ EARSHOT_DATA_DIR: otherData }));
    const port = new URL(holder.url).port;
    try {
      const refused = spawn(process.execPath, ['packages/cli/bin/earshot.js', 'serve'], {
        cwd: clone,
        env: cleanEnv({ EARSHOT_DATA_DIR: join(home, 'third'), PORT: port }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      refused.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => refused.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(`port ${port} is in use by another process (it is set by PORT or --port`);
      expect(postmasterOf(join(home, 'third'))).toBeUndefined();
    } finally {
      signalGroup(holder, 'SIGTERM');
      await new Promise((resolve) => holder.child.once('exit', resolve));
      removeCluster(join(home, 'third'));
    }
  }, 120_000);
});
