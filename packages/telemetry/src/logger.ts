import { pino, stdSerializers, type DestinationStream, type Level, type LevelWithSilent, type Logger, type LoggerOptions as PinoOptions } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };
export type LogLevel = LevelWithSilent;

export interface LoggerOptions {
  level: LogLevel;
  /** Readable lines for a person at a terminal; JSON lines, one per entry, for anything else (a pipe, a file, a collector). */
  pretty?: boolean;
  /** Where JSON lines go instead of stdout (a test reading them back). */
  destination?: DestinationStream;
}

const serializers = { err: stdSerializers.errWithCause };

/**
 * The process's logger: JSON lines on stdout, as log collectors read them,
 * with the level as its name, an ISO time, and errors with their causes.
 */
export function createLogger({ level, pretty: forPerson = process.stdout.isTTY === true, destination }: LoggerOptions): Logger {
  if (forPerson) return pino({ level, serializers }, pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  const options: PinoOptions = {
    level,
    serializers,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label as Level }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

let fallback: Logger | undefined;

/**
 * Where a package logs when no runtime handed it the process's logger (a
 * test, a one-shot command): warnings and errors on stderr.
 */
export function fallbackLogger(): Logger {
  fallback ??= pino({ level: 'warn', serializers }, pino.destination(2));
  return fallback;
}
