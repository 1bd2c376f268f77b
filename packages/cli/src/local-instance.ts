import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@earshot/config';

/** The port `earshot serve` takes when PORT is unset, and how many after it it tries when that one is held. */
export const DEFAULT_PORT = 8080;
export const DEFAULT_PORT_TRIES = 10;
/** OTLP's conventional gRPC port, where the gateway takes OTLP/gRPC when EARSHOT_OTLP_GRPC_PORT is unset (or the next free one). */
export const DEFAULT_OTLP_GRPC_PORT = 4317;
/**
 * OTLP/HTTP's conventional port, which a second instance's gRPC listener never takes: an exporter left at its HTTP
 * default would reach it and fail on the protocol rather than find nothing there.
 */
export const OTLP_HTTP_CONVENTIONAL_PORT = 4318;

function originFile(dataDir: string): string {
  return join(dataDir, 'earshot.url');
}

/** Kept while `earshot serve` runs, so the commands run beside it (`earshot demo`, `keys`, `tenant`) find it on whatever port it took. */
export function recordOrigin(dataDir: string, origin: string): { forget(): void } {
  writeFileSync(originFile(dataDir), `${origin}\n`);
  return { forget: () => rmSync(originFile(dataDir), { force: true }) };
}

/** The instance the local commands talk to: PORT when set, else the one serving this data directory, else the default port. */
export function localOrigin(config: Config): string {
  if (config.PORT !== undefined) return `http://127.0.0.1:${config.PORT}`;
  const file = originFile(config.EARSHOT_DATA_DIR);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  return `http://127.0.0.1:${DEFAULT_PORT}`;
}
