import { SingleBar } from 'cli-progress';

export interface Progress {
  /** Where the work stands; `total` when it is known (or has grown), `note` for what else is worth saying. */
  update(value: number, total?: number, note?: string): void;
  stop(): void;
}

/**
 * A progress bar on stderr (bar, rate, ETA) while stdout keeps the summary
 * for scripts. Off a terminal cli-progress draws nothing, so logs stay clean.
 */
export function progressBar(label: string, unit: string, total: number): Progress {
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${label} {bar} {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s | ETA {eta_formatted} {note}`,
    hideCursor: true,
    etaBuffer: 50,
    fps: 5,
  });
  const started = Date.now();
  bar.start(Math.max(total, 1), 0, { rate: 0, note: '' });
  return {
    update(value, next, note = '') {
      if (next !== undefined) bar.setTotal(Math.max(next, 1));
      const seconds = (Date.now() - started) / 1000;
      bar.update(value, { rate: seconds > 0 ? Math.round(value / seconds) : 0, note });
    },
    stop: () => bar.stop(),
  };
}
