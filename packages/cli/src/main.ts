import { CommanderError } from 'commander';
import { EXIT } from './cli/exit-codes';
import { failureOf } from './cli/failure';
import { buildProgram } from './cli/program';

/** Runs one command line and answers its exit code; errors are printed as one line, never thrown. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    // Commander has printed its own message by now: help or the version (0), or a usage error, or help for a command given no subcommand.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const failure = failureOf(error);
    process.stderr.write(`${failure.line}\n`);
    return failure.code;
  }
}
