import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { z } from 'zod';
import { VERSION as SDK_VERSION } from '@earshot/sdk';
import { registerAlertCommands } from '../commands/alerts';
import { registerCallCommands } from '../commands/calls';
import { registerCompletion } from '../commands/completion';
import { registerDeploymentCommands } from '../commands/deployments';
import { registerIncidentCommands } from '../commands/incidents';
import { registerKeyCommands } from '../commands/keys';
import { registerLocalCommands } from '../commands/local';
import { registerLoginCommands } from '../commands/login';
import { registerMetricCommands } from '../commands/metrics';
import { registerProviderCommands } from '../commands/providers';
import { registerRecordCommands } from '../commands/records';
import { registerTail } from '../commands/tail';
import { EXIT_CODES_HELP } from './exit-codes';
import { withExamples } from './examples';

const { version } = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')));

/** Commander's messages ("error: unknown option '--limt'\n(Did you mean --limit?)") as the one line every error takes. */
function oneLineError(text: string): string {
  return `earshot: ${text
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()}\n`;
}

/**
 * The whole command tree. Subcommands are made with `.command()` so they
 * inherit the program's settings: the error line, exit override and help
 * layout. Heavy modules (services, Kafka) load inside the actions only.
 */
export function buildProgram(): Command {
  const program = new Command('earshot')
    .description('Earshot, observability for voice AI agents: run it, and read its calls, incidents, metrics and live events from a terminal.')
    .version(`earshot ${version} (sdk ${SDK_VERSION}, node ${process.version})`, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .addOption(new Option('--profile <name>', 'use a profile stored by "earshot login"').env('EARSHOT_PROFILE'))
    .addOption(new Option('--url <url>', 'the Earshot instance, e.g. http://127.0.0.1:8080').env('EARSHOT_BASE_URL'))
    .addOption(new Option('--key <key>', 'the API key').env('EARSHOT_API_KEY'))
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({ outputError: (text, write) => write(oneLineError(text)) })
    .exitOverride()
    .addHelpText('after', `\n${EXIT_CODES_HELP}\nThe --url, --key and --profile options (or their environment variables) win over the stored profile.`);
  withExamples(program, [
    { what: 'show the version', run: 'earshot --version' },
    { what: 'read the help of one command', run: 'earshot help calls' },
  ]);
  registerLoginCommands(program);
  registerCallCommands(program);
  registerIncidentCommands(program);
  registerTail(program);
  registerAlertCommands(program);
  registerDeploymentCommands(program);
  registerMetricCommands(program);
  registerRecordCommands(program);
  registerKeyCommands(program);
  registerProviderCommands(program);
  registerLocalCommands(program);
  registerCompletion(program);
  return program;
}
