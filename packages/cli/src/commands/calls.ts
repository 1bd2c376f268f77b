import { Option, type Command } from 'commander';
import { CALL_RESOURCE_STATUSES, CALL_SORTS } from '@earshot/contracts';
import type { Call, CallDetail } from '@earshot/sdk';
import { timeArgument } from '../cli/arguments';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { listOptions, pageQuery, showList, type ListOptions } from '../cli/lists';
import { cell, millis, printJson, printNdjson, say, table } from '../cli/output';

interface CallListOptions extends ListOptions {
  status?: (typeof CALL_RESOURCE_STATUSES)[number];
  agent?: string;
  from?: string;
  to?: string;
  sort?: (typeof CALL_SORTS)[number];
}

function callTable(calls: readonly Call[]): string {
  return table(
    ['ID', 'AGENT', 'STATUS', 'STARTED', 'DURATION', 'TURNS', 'LATENCY P50', 'QUALITY'],
    calls.map((c) => [c.id, c.agentId, c.status, c.startedAt, millis(c.durationMs), String(c.turnCount), millis(c.latency.totalMs), cell(c.qualityScore)]),
  );
}

function callCard(call: CallDetail): string {
  const fields: [string, string][] = [
    ['id', call.id],
    ['agent', `${call.agentId}${call.agentVersion ? ` (${call.agentVersion})` : ''}`],
    ['status', call.status],
    ['provider', `${call.provider} ${call.providerCallId}`],
    ['started', call.startedAt],
    ['ended', cell(call.endedAt)],
    ['duration', millis(call.durationMs)],
    ['end reason', cell(call.endReason)],
    ['turns', `${call.turnCount} (${call.interruptions} interrupted)`],
    [
      'latency p50',
      `asr ${millis(call.latency.asrMs)}, llm ${millis(call.latency.llmMs)}, tts ${millis(call.latency.ttsMs)}, total ${millis(call.latency.totalMs)}`,
    ],
    ['tool calls', String(call.toolCallCount)],
    ['quality', cell(call.qualityScore)],
    ['cost', call.costUsd === null ? '-' : `$${call.costUsd.toFixed(4)}`],
    ['summary', cell(call.summary)],
  ];
  return table(['FIELD', 'VALUE'], fields);
}

const clip = (text: string | null, width: number): string => (text === null ? '-' : text.length > width ? `${text.slice(0, width - 1)}…` : text);

/** The turns of a call with the latency of each stage, offset from the call's start. */
function timelineTable(call: CallDetail): string {
  const start = Date.parse(call.startedAt);
  return table(
    ['#', 'TURN', 'AT', 'ASR', 'LLM', 'TTS', 'TOTAL', 'INTERRUPTED', 'TEXT'],
    call.turns.map((turn, index) => [
      String(index + 1),
      turn.turnId,
      `+${((Date.parse(turn.occurredAt) - start) / 1000).toFixed(1)} s`,
      millis(turn.latency.asrMs),
      millis(turn.latency.llmMs),
      millis(turn.latency.ttsMs),
      millis(turn.latency.totalMs),
      turn.interrupted ? 'yes' : 'no',
      clip(turn.text, 40),
    ]),
  );
}

export function registerCallCommands(program: Command): void {
  const calls = program.command('calls').description("the tenant's calls: list them, read one, print its turn timeline");
  withExamples(calls, [
    { what: 'the latest calls', run: 'earshot calls list' },
    { what: 'one call (CALL_ID from "earshot calls list")', run: 'earshot calls get $CALL_ID' },
  ]);

  const list = listOptions(
    calls
      .command('list')
      .description('calls, newest first, filtered as GET /calls')
      .addOption(new Option('--status <status>', 'only calls in this status').choices(CALL_RESOURCE_STATUSES))
      .option('--agent <id>', "only this agent's calls")
      .addOption(new Option('--from <time>', 'started at or after: ISO time, today, yesterday or a duration ago (24h)').argParser((t) => timeArgument(t)))
      .addOption(new Option('--to <time>', 'started before (same forms as --from)').argParser((t) => timeArgument(t)))
      .addOption(new Option('--sort <field>', 'sort order').choices(CALL_SORTS)),
    50,
  ).action(async (options: CallListOptions, command: Command) => {
    const list = clientOf(command).calls.list({
      ...pageQuery(options),
      ...(options.status ? { status: options.status } : {}),
      ...(options.agent ? { agentId: options.agent } : {}),
      ...(options.from ? { from: options.from } : {}),
      ...(options.to ? { to: options.to } : {}),
      ...(options.sort ? { sort: options.sort } : {}),
    });
    await showList(list, options, callTable, 'no calls');
  });
  withExamples(list, [
    { what: "yesterday's failed calls of one agent", run: 'earshot calls list --status failed --agent agent_support --from yesterday --to today' },
    { what: 'every call of the last 24 hours as NDJSON', run: 'earshot calls list --from 24h --all --json' },
  ]);

  const get = calls
    .command('get')
    .description('one call: its status, timing, latency, quality and cost')
    .argument('<id>', "the call's id")
    .option('--json', 'the call with its turns, transcript and traces as JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const call = await clientOf(command).calls.retrieve(id);
      if (options.json) printJson(call);
      else say(callCard(call));
    });
  withExamples(get, [
    { what: 'one call', run: 'earshot calls get $CALL_ID' },
    { what: 'the call with its transcript, as JSON', run: 'earshot calls get $CALL_ID --json' },
  ]);

  const timeline = calls
    .command('timeline')
    .description("a call's turns with the latency of each stage (speech recognition, LLM, speech synthesis)")
    .argument('<id>', "the call's id")
    .option('--json', 'one turn per line (NDJSON)')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const call = await clientOf(command).calls.retrieve(id);
      if (options.json) for (const turn of call.turns) printNdjson(turn);
      else say(call.turns.length === 0 ? 'no turns' : timelineTable(call));
    });
  withExamples(timeline, [
    { what: "a call's turn timeline", run: 'earshot calls timeline $CALL_ID' },
    { what: 'the turns as NDJSON', run: 'earshot calls timeline $CALL_ID --json' },
  ]);
}
