import { describe, expect, it } from 'vitest';
import { keepReading, type Reading } from './keep-reading';

/** A run that ends when told to: with an error, on its own, or by stop(). */
function run() {
  let end: (error?: Error) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    end = (error) => (error ? reject(error) : resolve());
  });
  let stops = 0;
  const reading: Reading = {
    ended,
    stop: () => {
      stops += 1;
      end();
      return ended.catch(() => undefined);
    },
  };
  return { reading, fail: (error: Error) => end(error), stops: () => stops };
}

const PAUSES = { first: 5, most: 40 };
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 1));
};

function reader(fails = 0) {
  const runs: ReturnType<typeof run>[] = [];
  const warnings: string[] = [];
  let refusals = fails;
  const start = () => {
    if (refusals > 0) {
      refusals -= 1;
      return Promise.reject(new Error('broker away'));
    }
    const next = run();
    runs.push(next);
    return Promise.resolve(next.reading);
  };
  const logger = { warn: (_fields: object, message: string) => void warnings.push(message) };
  return { runs, warnings, start, logger };
}

describe('keepReading', () => {
  it('starts a reader again when it ends on its own, saying so, and stops the one running', async () => {
    const { runs, warnings, start, logger } = reader();
    const running = await keepReading(start, { what: 'consumer of group g', logger, pauses: PAUSES });
    runs[0]?.fail(new Error('fetch failed'));
    await until(() => runs.length === 2);
    expect(runs[0]?.stops()).toBe(1);
    expect(warnings).toEqual(['consumer of group g stopped reading; starting it again in 5 ms']);
    await running.stop();
    expect(runs[1]?.stops()).toBe(1);
    expect(runs).toHaveLength(2);
  });

  it('keeps trying a start that fails, pausing longer each time up to the longest pause', async () => {
    const { runs, warnings, start, logger } = reader();
    const running = await keepReading(() => (runs.length === 1 && warnings.length < 5 ? Promise.reject(new Error('broker away')) : start()), {
      what: 'r',
      logger,
      pauses: PAUSES,
    });
    runs[0]?.fail(new Error('fetch failed'));
    await until(() => runs.length === 2);
    expect(warnings).toEqual([
      'r stopped reading; starting it again in 5 ms',
      'r could not start again; trying in 10 ms',
      'r could not start again; trying in 20 ms',
      'r could not start again; trying in 40 ms',
      'r could not start again; trying in 40 ms',
    ]);
    await running.stop();
  });

  it('reads on when the run that ended cannot be closed, saying so', async () => {
    const { runs, warnings, start, logger } = reader();
    const running = await keepReading(start, { what: 'r', logger, pauses: PAUSES });
    const first = runs[0];
    if (first) first.reading.stop = () => Promise.reject(new Error('leaveGroup failed'));
    first?.fail(new Error('fetch failed'));
    await until(() => runs.length === 2);
    expect(warnings).toEqual(['r could not be closed', 'r stopped reading; starting it again in 5 ms']);
    await running.stop();
  });

  it('leaves the first failed start to the caller', async () => {
    const { start, logger } = reader(1);
    await expect(keepReading(start, { what: 'r', logger, pauses: PAUSES })).rejects.toThrow('broker away');
  });

  it('starts nothing more once stopped while it paused, and stops a run that started as it was stopped', async () => {
    const { runs, start, logger } = reader();
    const running = await keepReading(start, { what: 'r', logger, pauses: { first: 60_000, most: 60_000 } });
    runs[0]?.fail(new Error('fetch failed'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await running.stop();
    expect(runs).toHaveLength(1);

    let release: () => void = () => undefined;
    const slow = reader();
    const starting = new Promise<void>((resolve) => (release = resolve));
    const second = await keepReading(() => (slow.runs.length === 0 ? slow.start() : starting.then(slow.start)), {
      what: 'r',
      logger,
      pauses: PAUSES,
    });
    slow.runs[0]?.fail(new Error('fetch failed'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const stopped = second.stop();
    release();
    await stopped;
    expect(slow.runs).toHaveLength(2);
    expect(slow.runs[1]?.stops()).toBe(1);
  });
});
