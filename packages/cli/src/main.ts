import type { CommandRunner } from './command-runner';

interface Command {
  name: string;
  summary: string;
  /** Commands load on use: `earshot keys` need not load every service the way `earshot serve` does. */
  load(): Promise<CommandRunner>;
}

const commands: Command[] = [
  {
    name: 'serve',
    summary: 'run Earshot services: --target=all, or a comma list of gateway, projector, query, audit, keys, alerting, billing, developer [--port N]',
    load: async () => (await import('./commands/serve')).serveCommand,
  },
  {
    name: 'tenant',
    summary: 'operator: tenant create|list|suspend|resume|delete [--url U] [--json] (token from EARSHOT_ADMIN_TOKEN)',
    load: async () => (await import('./commands/tenant')).tenantCommand,
  },
  {
    name: 'replay',
    summary: 'rebuild the read models from the log into fresh tables, then swap them in: --from earliest|<ISO time>',
    load: async () => (await import('./commands/replay')).replayCommand,
  },
  {
    name: 'export',
    summary: 'write a topic to a file: --topic earshot.events [--from earliest|<ISO>] [--to <ISO>] [--format ndjson|avro] --out FILE',
    load: async () => (await import('./commands/export')).exportCommand,
  },
  {
    name: 'demo',
    summary: 'stream realistic signed calls: demo [--calls N] [--rate events/s] [--seed S] [--url U --key K --secret S] [--otlp]',
    load: async () => (await import('./commands/demo')).demoCommand,
  },
  {
    name: 'keys',
    summary: 'API keys: keys create|list|get|rotate|revoke [--json] (key from EARSHOT_API_KEY)',
    load: async () => (await import('./commands/keys')).keysCommand,
  },
  {
    name: 'secret',
    summary: 'webhook secret: secret rotate [--overlap 24h] [--json] (key from EARSHOT_API_KEY)',
    load: async () => (await import('./commands/secret')).secretCommand,
  },
];

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
    return await (await command.load()).run(rest);
  } catch (error) {
    console.error(`earshot ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
