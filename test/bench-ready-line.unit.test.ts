import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readyLine } from '../bench/ready-line';

/** A node process running `script`, its output piped as the benches start their servers. */
const node = (script: string) => spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });

describe("a served process's ready line", () => {
  it('is found once, in output read to the end', async () => {
    // A megabyte after the ready line, as a server logging its requests prints, read without blocking the process.
    const child = node(`
      console.log('starting');
      console.log('listening on http://127.0.0.1:4321');
      const line = 'request completed '.repeat(50) + '\\n';
      for (let i = 0; i < 1_100; i++) process.stdout.write(line);
      process.stderr.write('bye\\n');`);
    const match = await readyLine(child, /listening on (http:\/\/\S+)/, 'the server');
    expect(match[1]).toBe('http://127.0.0.1:4321');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });

  it('is refused with the tail of what the process said when it exits first, at most 64 KiB of it', async () => {
    const child = node(`
      for (let i = 0; i < 4_000; i++) console.log('line ' + i + ' '.repeat(60));
      console.log('no port to listen on');
      process.exitCode = 3;`);
    const refused = await readyLine(child, /listening on (http:\/\/\S+)/, 'the server').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Error);
    const message = (refused as Error).message;
    expect(message).toMatch(/^the server exited with 3: /);
    expect(message).toContain('no port to listen on');
    expect(message).not.toContain('line 0 ');
    expect(message.length).toBeLessThan(64 * 1024 + 100);
  });
});
