import type { Running } from '../event-log';

/** One run of a reader: its consumer and the loop draining it. */
export interface Reading {
  /** Settles when the loop ends: when stopped, or on its own (a fetch failed past the client's retries, a commit was refused). */
  readonly ended: Promise<void>;
  /** Ends the loop and closes the consumer; more than once does no more. */
  stop(): Promise<void>;
}

export interface KeepReadingOptions {
  /** The reader, as the warnings name it. */
  what: string;
  logger: { warn(fields: { err: unknown }, message: string): void };
  /** The first pause before starting again, doubled while starts keep failing or ending soon, up to `most` (ms). */
  pauses?: { first: number; most: number };
}

/**
 * Starts a reader, and starts it again whenever it ends on its own. kafkajs's
 * consumer restarts itself so; this client's stream ends for good when a
 * fetch fails past its retries (a broker restarting, a leader moving for
 * longer), which left a projector reading nothing while its process lived on.
 * The pause doubles while the reader keeps ending within the longest pause,
 * so a broker that stays away is asked every `most` ms, not in a loop. The
 * first start's failure is the caller's.
 */
export async function keepReading(start: () => Promise<Reading>, options: KeepReadingOptions): Promise<Running> {
  const { first, most } = options.pauses ?? { first: 1_000, most: 30_000 };
  let current = await start();
  let stopping = false;
  let wake = () => undefined as void;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const supervising = (async () => {
    let wait = first;
    for (;;) {
      const began = Date.now();
      const failure = await current.ended.then(
        () => undefined,
        (error: unknown) => error,
      );
      if (stopping) return;
      // A consumer that cannot be closed is no reason to stop reading: the next run is another consumer.
      await current.stop().catch((error: unknown) => options.logger.warn({ err: error }, `${options.what} could not be closed`));
      if (Date.now() - began > most) wait = first;
      options.logger.warn({ err: failure }, `${options.what} stopped reading; starting it again in ${wait} ms`);
      for (;;) {
        await pause(wait);
        wait = Math.min(wait * 2, most);
        if (stopping) return;
        try {
          current = await start();
          break;
        } catch (error) {
          options.logger.warn({ err: error }, `${options.what} could not start again; trying in ${wait} ms`);
        }
      }
      // Stopped while it started: what stop() stopped was the run before.
      if (stopping) return current.stop();
    }
  })();

  return {
    stop: async () => {
      stopping = true;
      wake();
      await current.stop();
      await supervising;
    },
  };
}
