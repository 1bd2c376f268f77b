import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll } from 'vitest';
import { leftRunning, openSockets, runningHandles } from './left-running';

/**
 * Integration files share a worker (`isolate: false`), so a server, socket, child process or timer one file leaves
 * running would go on beside every later file. Each file fails unless it stops what it starts. Runs after the file's
 * own afterAll hooks (vitest runs after-hooks in reverse order, and this file's come first).
 */
let before = new Map<string, number>();
let socketsBefore = new Set<string>();

beforeAll(() => {
  before = runningHandles();
  socketsBefore = openSockets();
});

afterAll(async () => {
  // A stopped socket or child takes a moment to be gone (its close, its exit): what is left after 5 s was not stopped.
  const deadline = Date.now() + 5_000;
  let left = leftRunning(before, runningHandles());
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(100);
    left = leftRunning(before, runningHandles());
  }
  if (left.length > 0) {
    const sockets = [...openSockets()].filter((socket) => !socketsBefore.has(socket));
    const named = sockets.length > 0 ? ` (sockets opened since: ${sockets.join(', ')})` : '';
    throw new Error(`this file left running after its tests: ${left.join(', ')}${named}; stop what it starts in afterAll`);
  }
});
