import { connect, createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { leftRunning, openSockets } from './left-running';

describe('leftRunning', () => {
  it('names each kind of which more run now, with how many more', () => {
    const before = new Map([
      ['TCPSocketWrap', 2],
      ['Timeout', 1],
    ]);
    const now = new Map([
      ['TCPSocketWrap', 2],
      ['Timeout', 3],
      ['ProcessWrap', 1],
    ]);
    expect(leftRunning(before, now)).toEqual(['Timeout ×2', 'ProcessWrap ×1']);
  });

  it('names nothing when everything started since was stopped, or more was stopped than started', () => {
    expect(leftRunning(new Map([['TCPServerWrap', 2]]), new Map([['TCPServerWrap', 1]]))).toEqual([]);
    expect(leftRunning(new Map(), new Map())).toEqual([]);
  });
});

describe('openSockets', () => {
  it('names a socket this process opened by its ports, and forgets it once closed', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const named = `${socket.localPort} → 127.0.0.1:${port}`;
    expect(openSockets()).toContain(named);
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    expect(openSockets()).not.toContain(named);
  });
});
