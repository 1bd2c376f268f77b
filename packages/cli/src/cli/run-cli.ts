import { vi } from 'vitest';
import { main } from '../main';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * A command line as a shell would split it: words, with quoted strings kept
 * whole and $NAME taken from `vars`, except inside single quotes (JSON).
 */
export function shellWords(line: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    if (match[2] !== undefined) {
      words.push(match[2]);
      continue;
    }
    const word = match[1] ?? match[3] ?? '';
    words.push(
      word.replace(/\$([A-Z_]+)/g, (_, name: string) => {
        const value = vars[name];
        if (value === undefined) throw new Error(`the example names $${name}, which the test does not set`);
        return value;
      }),
    );
  }
  return words;
}

/** Runs `earshot …` in this process, as the bin does, with what it printed on stdout and stderr. */
export async function runCli(argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += chunk.toString();
    return true;
  });
  try {
    const code = await main(argv);
    return { code, out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}
