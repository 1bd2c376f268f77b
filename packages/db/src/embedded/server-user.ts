import { spawnSync } from 'node:child_process';
import { userInfo } from 'node:os';

/** The account PostgreSQL runs as: it refuses root, so under root it runs as a `postgres` system user. */
export interface ServerUser {
  uid: number;
  gid: number;
}

const NAME = 'postgres';

/** Undefined when we are not root (the server then runs as us); created once if the system lacks it. */
export function serverUser(): ServerUser | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, NAME], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    spawnSync('groupadd', ['--system', NAME]);
    const added = spawnSync('useradd', ['--system', '-g', NAME, '--no-create-home', '--shell', '/usr/sbin/nologin', NAME], { encoding: 'utf8' });
    if (added.status !== 0)
      throw new Error(`cannot create the ${NAME} user PostgreSQL needs when run as root: ${(added.error?.message ?? added.stderr).trim()}`);
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

/** Whether the server's user may traverse to `path` (every folder above it searchable), asked of the kernel as that user. */
export function reachable(user: ServerUser | undefined, path: string, test: '-x' | '-r' = '-x'): boolean {
  if (!user) return true;
  return spawnSync('test', [test, path], user).status === 0;
}
