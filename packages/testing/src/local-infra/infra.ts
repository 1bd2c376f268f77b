import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { runningBroker, startKafka, stopKafka } from './kafka';
import { startPostgres, stopPostgres } from '@earshot/db';

/**
 * Local infrastructure without Docker: a Kafka broker and a PostgreSQL server
 * under `.data/infra`, started once and reused by later runs. Where
 * KAFKA_BROKERS / DATABASE_URL are set, those are used and nothing starts.
 */
const root = resolve(new URL('../../../..', import.meta.url).pathname);

export interface Infra {
  kafkaBrokers: string;
  databaseUrl: string;
  /** What this call started (so a test run stops only what it started). */
  started: { kafka: boolean; postgres: boolean };
  /** The local broker's process, so a benchmark can count its CPU; unknown for a broker from KAFKA_BROKERS. */
  kafkaPid: number | undefined;
}

const stateDir = process.env.EARSHOT_INFRA_DIR ?? resolve(root, '.data/infra');
const cacheDir = process.env.EARSHOT_CACHE_DIR ?? resolve(root, '.cache');
/** Set, a port is used or the start fails naming it; unset, a free one is chosen and kept in the state folder. */
const explicitPort = (variable: string): number | undefined => {
  const text = process.env[variable];
  if (text === undefined || text === '') return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`${variable} must be a port number, not "${text}"`);
  return port;
};

/** `lean`: a broker started for a test run, not a benchmark (KafkaPaths.lean). */
export async function infraUp(log: (line: string) => void = (l) => console.error(l), { lean = false } = {}): Promise<Infra> {
  mkdirSync(stateDir, { recursive: true });
  const presetKafka = process.env.KAFKA_BROKERS;
  const presetPostgres = process.env.DATABASE_URL;
  const [kafka, postgres] = await Promise.all([
    presetKafka
      ? { brokers: presetKafka, fresh: false }
      : startKafka({ cacheDir, stateDir, port: explicitPort('EARSHOT_INFRA_KAFKA_PORT'), disposable: true, lean }, log),
    presetPostgres
      ? { url: presetPostgres, fresh: false }
      : startPostgres({ stateDir, port: explicitPort('EARSHOT_INFRA_POSTGRES_PORT'), portVariable: 'EARSHOT_INFRA_POSTGRES_PORT', disposable: true }, log),
  ]);
  return {
    kafkaBrokers: kafka.brokers,
    databaseUrl: postgres.url,
    started: { kafka: kafka.fresh, postgres: postgres.fresh },
    kafkaPid: presetKafka ? undefined : runningBroker(stateDir),
  };
}

export async function infraDown(what: { kafka: boolean; postgres: boolean } = { kafka: true, postgres: true }): Promise<void> {
  if (what.kafka) await stopKafka(stateDir);
  if (what.postgres) stopPostgres(stateDir);
}

async function main(command: string | undefined, options: string[]): Promise<void> {
  if (command === 'up') {
    const infra = await infraUp(undefined, { lean: options.includes('--lean') });
    // --json is for the test runner, which must know what it started so as to stop only that.
    if (options.includes('--json')) return console.log(JSON.stringify(infra));
    console.log(`export KAFKA_BROKERS=${infra.kafkaBrokers}`);
    console.log(`export DATABASE_URL=${infra.databaseUrl}`);
    return;
  }
  if (command === 'down') {
    // Naming kafka or postgres stops only that one.
    const only = options.length > 0;
    await infraDown({ kafka: !only || options.includes('kafka'), postgres: !only || options.includes('postgres') });
    console.error(`local ${only ? options.join(' and ') : 'Kafka and PostgreSQL'} stopped`);
    return;
  }
  console.error('usage: infra.ts up [--json] [--lean] | down [kafka] [postgres]');
  process.exitCode = 2;
}

if (process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main(process.argv[2], process.argv.slice(3)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
