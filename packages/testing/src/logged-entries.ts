import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@earshot/telemetry';

/** A process's logger at info, as its JSON lines reach a collector, and the entries it has written so far, parsed. */
export function loggedEntries(): { logger: Logger; entries: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return {
    logger: createLogger({ level: 'info', pretty: false, destination }),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
