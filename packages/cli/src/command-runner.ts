/** A subcommand of `earshot`: it runs with its arguments and answers its exit code. */
export interface CommandRunner {
  run(args: string[]): Promise<number>;
}
