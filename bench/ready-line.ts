import type { ChildProcess } from 'node:child_process';

/** What is kept of a served process's output once it is ready: enough for the message should it exit. */
const TAIL = 64 * 1024;

/**
 * The first match of `ready` in what a process it started prints (stdout and stderr as piped); rejects, with the
 * output's tail, if the process exits first. A served process logs every request it answers, and the output is read
 * for the whole run so the process never blocks on a full pipe: only the tail is kept, and only what came before the
 * match is searched. Searching everything at every chunk cost the bench's process, which also makes the load, seconds
 * of CPU a run.
 */
export function readyLine(child: ChildProcess, ready: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    let found = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!found) {
        const match = ready.exec(output);
        if (match) {
          found = true;
          resolve(match);
        }
      }
      if (output.length > TAIL) output = output.slice(-TAIL);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    // On close, not exit: the process may exit before its last words are read from the pipes.
    child.once('close', (code) => reject(new Error(`${what} exited with ${code}: ${output}`)));
  });
}
