import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { deployedHeapFlags } from './deployed-flags';
import { readyLine } from './ready-line';

/**
 * Gateway processes for a bench, behind one port: one process as is, or N
 * node:cluster workers sharing the listening socket (the primary hands
 * connections out round robin; its CPU counts with the workers').
 */
export interface Gateways {
  url: string;
  /** Every process whose CPU is the gateway's: the workers, and the primary when there is one. */
  pids: number[];
  stop(): Promise<void>;
}

/** A bare Fastify route answering 202, whose CPU per request is a run's yardstick for the gateway's. */
export interface Bare {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface GatewaysOptions {
  processes: number;
  env: Record<string, string>;
  /** Where each gateway writes a V8 CPU profile when it stops (`--cpu-prof`); empty for none. */
  profileDir: string;
}

const earshot = new URL('../packages/cli/bin/earshot.js', import.meta.url).pathname;
/**
 * The V8 flags of the `earshot` command's shebang (started through node, the gateways get them as `npm start` does),
 * and the heap flags the gateway is deployed with.
 */
const NODE_FLAGS = [
  ...(readFileSync(earshot, 'utf8').split('\n', 1)[0] ?? '')
    .replace(/^#!\/usr\/bin\/env -S node/, '')
    .split(' ')
    .filter(Boolean),
  ...deployedHeapFlags('gateway'),
];
// The keys service rides along only to create the bench's tenant; it is idle during the load.
const SERVE = ['serve', '--target=gateway,keys', '--port', '0'];

export async function startGateways(options: GatewaysOptions): Promise<Gateways> {
  const children: ChildProcess[] = [];
  const nodeFlags = [...NODE_FLAGS, ...(options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [])];
  const stop = () => stopAll(children);
  try {
    const env = { ...options.env, BENCH_EARSHOT: earshot, BENCH_GATEWAYS: String(options.processes), BENCH_EXEC_ARGV: JSON.stringify(nodeFlags) };
    const started =
      options.processes === 1
        ? await serve(children, [...nodeFlags, earshot, ...SERVE], env, /listening on (http:\/\/[\d.]+:\d+)/)
        : await serve(children, ['--input-type=module', '-e', CLUSTER_PRIMARY], env, /gateways listening on (http:\/\/[\d.]+:\d+) pids ([\d,]+)/);
    const primary = children[0]?.pid ?? 0;
    const pids = options.processes === 1 ? [primary] : [primary, ...(started[2] ?? '').split(',').map(Number)];
    return { url: started[1] ?? '', pids, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function startBare(): Promise<Bare> {
  const children: ChildProcess[] = [];
  const stop = () => stopAll(children);
  try {
    const started = await serve(children, ['--input-type=module', '-e', BARE_SERVER], {}, /listening on (http:\/\/[\d.]+:\d+)/);
    return { url: started[1] ?? '', pid: children[0]?.pid ?? 0, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function stopAll(children: readonly ChildProcess[]): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
}

const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ bodyLimit: 1024 * 1024 });
app.post('/api/v1/webhooks/ingest', async (request, reply) => reply.status(202).send({ ok: true }));
console.log('listening on ' + (await app.listen({ port: 0, host: '127.0.0.1' })));
`;

// The first worker migrates the database alone; the others start once it listens. listen(0) in workers shares one port.
const CLUSTER_PRIMARY = `
import cluster from 'node:cluster';
const count = Number(process.env.BENCH_GATEWAYS);
cluster.setupPrimary({ exec: process.env.BENCH_EARSHOT, args: ${JSON.stringify(SERVE)}, execArgv: JSON.parse(process.env.BENCH_EXEC_ARGV) });
const workers = [];
let url;
const listening = (worker) => new Promise((resolve) => worker.once('listening', (address) => resolve(address)));
for (let i = 0; i < count; i++) {
  const worker = cluster.fork();
  workers.push(worker);
  const address = await listening(worker);
  url ??= 'http://127.0.0.1:' + address.port;
}
console.log('gateways listening on ' + url + ' pids ' + workers.map((w) => w.process.pid).join(','));
// A worker's IPC channel keeps it alive after it stops: disconnecting lets it exit; a worker still there after 20 s is killed.
process.on('SIGTERM', () => {
  let left = workers.length;
  cluster.on('exit', () => { if (--left === 0) process.exit(0); });
  for (const worker of workers) {
    worker.process.kill('SIGTERM');
    worker.disconnect();
  }
  setTimeout(() => { for (const worker of workers) worker.process.kill('SIGKILL'); }, 20_000).unref();
});
`;

function serve(children: ChildProcess[], args: string[], env: Record<string, string>, ready: RegExp): Promise<RegExpExecArray> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: new URL('..', import.meta.url).pathname,
  });
  children.push(child);
  return readyLine(child, ready, args.join(' ').slice(0, 200));
}
