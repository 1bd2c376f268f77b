import { existsSync } from 'node:fs';
import { infraDown, infraUp } from '@earshot/testing';

/**
 * `npm run bench -- <name> [options]`: brings up the same infrastructure as the
 * tests, runs `bench/<name>.ts`, and ends with one line holding a JSON object
 * of its figures, so runs can be compared.
 */
export interface BenchContext {
  kafkaBrokers: string[];
  /** The broker's process when it runs here (started by the bench's infrastructure), for its CPU. */
  brokerPid: number | undefined;
  databaseUrl: string;
  args: string[];
  progress: (line: string) => void;
  report: (line: string) => void;
}

/** A figure of a bench's line: a number, a word, or a list of parts (each statement's share of Postgres's time). */
export type Figure = number | string | boolean | readonly Readonly<Record<string, number | string>>[];

export type Bench = (context: BenchContext) => Promise<Record<string, Figure>>;

/** A bench file: its bench, and `withoutInfrastructure` when it measures code alone (no broker, no Postgres, empty in its context). */
interface BenchModule {
  default: Bench;
  withoutInfrastructure?: boolean;
}

async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2);
  const file = name ? new URL(`./${name}.ts`, import.meta.url) : undefined;
  if (!name || !file || !existsSync(file)) {
    console.error(`usage: npm run bench -- <name>   (names: files under bench/)`);
    return 2;
  }
  const module = (await import(file.href)) as BenchModule;
  const infra = module.withoutInfrastructure === true ? undefined : await infraUp((line) => console.error(`[infra] ${line}`));
  try {
    const figures = await module.default({
      kafkaBrokers: infra?.kafkaBrokers.split(',') ?? [],
      brokerPid: infra?.kafkaPid,
      databaseUrl: infra?.databaseUrl ?? '',
      args,
      progress: (line) => process.stderr.write(`\r\x1b[2K${line}`),
      report: (line) => process.stderr.write(`\r\x1b[2K${line}\n`),
    });
    console.log(JSON.stringify({ bench: name, at: new Date().toISOString(), ...figures }));
    return 0;
  } finally {
    if (infra !== undefined) await infraDown(infra.started);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
