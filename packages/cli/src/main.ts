import { demoCommand } from './commands/demo';
import { exportCommand } from './commands/export';
import { keysCommand } from './commands/keys';
import { replayCommand } from './commands/replay';
import { secretCommand } from './commands/secret';
import { serveCommand } from './commands/serve';
import { tenantCommand } from './commands/tenant';

export interface Command {
  name: string;
  summary: string;
  run(args: string[]): Promise<number>;
}

const commands: Command[] = [serveCommand, tenantCommand, replayCommand, exportCommand, demoCommand, keysCommand, secretCommand];

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return ['usage: earshot <command> [options]', '', ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)].join('\n');
}

/** Runs one command and answers its exit code; errors are printed, never thrown. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`earshot: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    console.error(`earshot ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
