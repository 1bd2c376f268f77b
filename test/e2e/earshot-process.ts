import { spawn, type ChildProcess } from 'node:child_process';

const earshot = new URL('../../packages/cli/bin/earshot.js', import.meta.url).pathname;

/** A real `earshot serve` child process. */
export interface EarshotProcess {
  url: string;
  /** The process id, which lease holders carry (`host/pid/…`). */
  pid: number;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM (a drain) or SIGKILL (a crash); resolves once it has exited. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
}

/** The environment without anything the parent's shell may have set for Earshot. */
export function cleanEnv(env: Record<string, string>): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !/^(EARSHOT_|KAFKA_BROKERS$|DATABASE_URL$|PORT$)/.test(entry[0]),
    ),
  );
  return { ...inherited, NODE_ENV: 'test', ...env };
}

export async function startEarshot(target: string, env: Record<string, string>): Promise<EarshotProcess> {
  const child: ChildProcess = spawn(process.execPath, [earshot, 'serve', `--target=${target}`, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`earshot serve --target=${target} exited with ${code}:\n${output}`)));
  });
  return {
    url,
    pid: child.pid ?? 0,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
