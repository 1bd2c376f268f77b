import { CommanderError } from 'commander';
import { EXIT } from './cli/exit-codes';
import { failureOf } from './cli/failure';
import { buildProgram } from './cli/program';

const SHOWN = new Set(['commander.helpDisplayed', 'commander.version']);

/** Runs one command line and answers its exit code; errors are printed as one line, never thrown. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    // Commander has printed its own message (help, version or the usage error) by now.
    if (error instanceof CommanderError) return SHOWN.has(error.code) ? EXIT.ok : EXIT.usage;
    const failure = failureOf(error);
    process.stderr.write(`${failure.line}\n`);
    return failure.code;
  }
}
