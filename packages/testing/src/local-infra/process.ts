import { existsSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { lastLines } from '@earshot/db';

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits for a TCP port; fails early, with the log's tail, if the process died. */
export async function waitForPort(port: number, timeoutMs: number, alive: () => boolean = () => true, logFile?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portAnswers(port)) return;
    if (!alive()) throw new Error(`the process exited before port ${port} answered${tail(logFile)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`port ${port} did not answer within ${timeoutMs} ms${tail(logFile)}`);
}

function tail(file: string | undefined): string {
  if (!file || !existsSync(file)) return '';
  return `; ${file} ends: ${lastLines(readFileSync(file, 'utf8'))}`;
}
