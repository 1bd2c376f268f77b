import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { choosePort, freePort, portInUse } from './ports';

const held: Server[] = [];

async function hold(): Promise<number> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  held.push(server);
  return port;
}

afterEach(async () => {
  await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('choosePort', () => {
  it('refuses an explicit port another process holds, naming the port and the variable that set it', async () => {
    const port = await hold();
    expect(await portInUse(port)).toBe(true);
    await expect(choosePort({ explicit: port, variable: 'EARSHOT_EMBEDDED_POSTGRES_PORT', previous: undefined, service: 'PostgreSQL' })).rejects.toThrow(
      `PostgreSQL cannot listen on port ${port}: another process holds it (the port is set by EARSHOT_EMBEDDED_POSTGRES_PORT`,
    );
  });

  it('takes the previous port again while it is free, and another free one once it is not', async () => {
    const previous = await freePort();
    expect(await choosePort({ explicit: undefined, variable: 'X', previous, service: 'PostgreSQL' })).toBe(previous);
    const taken = await hold();
    const chosen = await choosePort({ explicit: undefined, variable: 'X', previous: taken, service: 'PostgreSQL' });
    expect(chosen).not.toBe(taken);
    expect(await portInUse(chosen)).toBe(false);
  });
});
