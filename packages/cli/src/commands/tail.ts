import { styleText } from 'node:util';
import { Option, type Command } from 'commander';
import { EVENT_TYPES } from '@earshot/contracts';
import type { StreamEvent } from '@earshot/sdk';
import { countArgument } from '../cli/arguments';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { printNdjson, say } from '../cli/output';

interface TailOptions {
  type?: string[];
  agent?: string;
  call?: string;
  after?: string;
  count?: number;
  json?: boolean;
}

type Colour = Parameters<typeof styleText>[0];

/** Failures red, ends and alerts yellow, starts green: the eye finds trouble in a scrolling terminal. */
function colourOf(type: string): Colour {
  if (/error|failed|dead/.test(type)) return 'red';
  if (/ended|alert|incident/.test(type)) return 'yellow';
  if (/started|answered/.test(type)) return 'green';
  return 'dim';
}

/** One event in one line: when, what, which agent and call, and the event's data in brief. */
function eventLine({ event }: StreamEvent, colour: boolean): string {
  const type = event.type.padEnd(26);
  const data = JSON.stringify(event.data ?? {});
  const line = `${event.occurred_at}  ${colour ? styleText(colourOf(event.type), type) : type}  ${event.call?.agent_id ?? '-'}  ${event.call?.provider_call_id ?? '-'}  ${data.length > 100 ? `${data.slice(0, 99)}…` : data}`;
  return line;
}

export function registerTail(program: Command): void {
  const tail = program
    .command('tail')
    .description('the live event stream, one line per event; it resumes by itself after a dropped connection')
    .addOption(new Option('--type <type...>', 'only these event types').choices(EVENT_TYPES))
    .option('--agent <id>', "only this agent's events")
    .option('--call <id>', "only this call's events (Earshot's id or the provider's)")
    .option('--after <position>', 'start after this position (printed with --json), to pick up where an earlier tail stopped')
    .addOption(new Option('--count <n>', 'stop after this many events').argParser(countArgument))
    .option('--json', 'one {position, event} object per line (NDJSON)')
    .action(async (options: TailOptions, command: Command) => {
      const stream = clientOf(command).stream.subscribe({
        ...(options.type ? { types: options.type } : {}),
        ...(options.agent ? { agentId: options.agent } : {}),
        ...(options.call ? { callId: options.call } : {}),
        ...(options.after ? { after: options.after } : {}),
      });
      const stop = () => stream.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const colour = process.stdout.isTTY && !process.env.NO_COLOR;
      let seen = 0;
      try {
        for await (const received of stream) {
          if (options.json) printNdjson(received);
          else say(eventLine(received, colour));
          seen += 1;
          if (options.count !== undefined && seen >= options.count) break;
        }
      } finally {
        stream.close();
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
  withExamples(tail, [
    { what: 'every event as it arrives (Ctrl-C stops)', run: 'earshot tail --count 5' },
    { what: "one agent's call ends, as NDJSON", run: 'earshot tail --type call.ended --agent agent_support --count 1 --json' },
  ]);
}
