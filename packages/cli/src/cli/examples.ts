import type { Command } from 'commander';

export interface Example {
  /** What it does, in a few words. */
  what: string;
  /** The command line as typed, starting with `earshot`. */
  run: string;
}

/**
 * Adds the examples under the command's help. Each is a line of its own
 * starting `$ earshot`, so the test suite reads them out of the help a
 * person sees and runs every one against a live instance.
 */
export function withExamples(command: Command, examples: readonly Example[]): Command {
  const lines = examples.flatMap((e) => [`  # ${e.what}`, `  $ ${e.run}`]);
  return command.addHelpText('after', `\nExamples:\n${lines.join('\n')}`);
}
