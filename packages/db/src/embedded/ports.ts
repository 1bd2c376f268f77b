import { createServer } from 'node:net';

/** Whether something already listens on 127.0.0.1:`port` (asked by binding it, the way the server itself would). */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/** A port the kernel has just called free. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port was assigned'))));
    });
  });
}

export interface PortChoice {
  /** A port the operator set; it is used or the start fails, naming it. */
  explicit: number | undefined;
  /** The variable that sets `explicit`, for the message when it is taken. */
  variable: string;
  /** The port an earlier start chose, tried first so the printed URLs stay the same between starts. */
  previous: number | undefined;
  /** What listens there, for the message. */
  service: string;
}

export async function choosePort({ explicit, variable, previous, service }: PortChoice): Promise<number> {
  if (explicit !== undefined) {
    if (await portInUse(explicit))
      throw new Error(
        `${service} cannot listen on port ${explicit}: another process holds it (the port is set by ${variable}; choose another, or unset it to let Earshot pick a free one)`,
      );
    return explicit;
  }
  if (previous !== undefined && !(await portInUse(previous))) return previous;
  return freePort();
}
