import { Option, type Command } from 'commander';
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '@earshot/contracts';
import type { Incident, IncidentUpdateParams } from '@earshot/sdk';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { listOptions, pageQuery, showList, type ListOptions } from '../cli/lists';
import { cell, printJson, say, table } from '../cli/output';

function incidentTable(incidents: readonly Incident[]): string {
  return table(
    ['ID', 'TITLE', 'SEVERITY', 'STATUS', 'AGENTS', 'STARTED', 'NOTES'],
    incidents.map((i) => [i.id, i.title, i.severity, i.status, i.affectedAgents.join('\n') || '-', cell(i.startedAt ?? i.createdAt), String(i.notes.length)]),
  );
}

/** One change to an incident, printed as what happened (or the API's answer with --json). */
function changeCommand(
  incidents: Command,
  name: string,
  description: string,
  change: (note: string | undefined) => IncidentUpdateParams,
  done: string,
): Command {
  return incidents
    .command(name)
    .description(description)
    .argument('<id>', "the incident's id")
    .option('--note <text>', 'a note for the incident timeline')
    .option('--json', "the API's answer as JSON")
    .action(async (id: string, options: { note?: string; json?: boolean }, command: Command) => {
      const answer = await clientOf(command).incidents.update(id, change(options.note));
      if (options.json) printJson(answer);
      else say(`${done} incident ${answer.id}`);
    });
}

export function registerIncidentCommands(program: Command): void {
  const incidents = program.command('incidents').description('incidents: list, open, acknowledge, resolve, add notes');
  withExamples(incidents, [
    { what: 'the open incidents', run: 'earshot incidents list --status open' },
    { what: 'acknowledge one (INCIDENT_ID from "earshot incidents list")', run: 'earshot incidents ack $INCIDENT_ID' },
  ]);

  const list = listOptions(
    incidents
      .command('list')
      .description('incidents, newest first')
      .addOption(new Option('--status <status>', 'only incidents in this status').choices(INCIDENT_STATUSES)),
    50,
  ).action(async (options: ListOptions & { status?: (typeof INCIDENT_STATUSES)[number] }, command: Command) => {
    const list = clientOf(command).incidents.list({ ...pageQuery(options), ...(options.status ? { status: options.status } : {}) });
    await showList(list, options, incidentTable, 'no incidents');
  });
  withExamples(list, [
    { what: 'every incident', run: 'earshot incidents list' },
    { what: 'the open ones as NDJSON', run: 'earshot incidents list --status open --json' },
  ]);

  const open = incidents
    .command('open')
    .description('open an incident')
    .requiredOption('--title <text>', 'what is wrong')
    .addOption(new Option('--severity <level>', 'how bad').choices(INCIDENT_SEVERITIES).default('medium'))
    .option('--agent <id...>', 'the agents affected')
    .option('--description <text>', 'more detail')
    .option('--json', "the API's answer as JSON")
    .action(
      async (
        options: { title: string; severity: (typeof INCIDENT_SEVERITIES)[number]; agent?: string[]; description?: string; json?: boolean },
        command: Command,
      ) => {
        const answer = await clientOf(command).incidents.create({
          title: options.title,
          severity: options.severity,
          ...(options.agent ? { affectedAgents: options.agent } : {}),
          ...(options.description ? { description: options.description } : {}),
        });
        if (options.json) printJson(answer);
        else say(`opened incident ${answer.id}`);
      },
    );
  withExamples(open, [
    { what: 'open an incident for one agent', run: 'earshot incidents open --title "Slow answers" --severity high --agent agent_support' },
    { what: 'and print its id as JSON', run: 'earshot incidents open --title "ASR errors" --json' },
  ]);

  const withNote = (note: string | undefined) => (note === undefined ? {} : { note });
  withExamples(
    changeCommand(incidents, 'ack', 'acknowledge an incident: someone is on it', (note) => ({ status: 'acknowledged', ...withNote(note) }), 'acknowledged'),
    [
      { what: 'acknowledge an incident', run: 'earshot incidents ack $INCIDENT_ID' },
      { what: 'with a note', run: 'earshot incidents ack $INCIDENT_ID --note "looking at the ASR vendor"' },
    ],
  );
  withExamples(
    changeCommand(incidents, 'resolve', 'resolve an incident', (note) => ({ status: 'resolved', ...withNote(note) }), 'resolved'),
    [
      { what: 'resolve an incident', run: 'earshot incidents resolve $INCIDENT_ID' },
      { what: 'with what fixed it', run: 'earshot incidents resolve $INCIDENT_ID --note "vendor rolled back" --json' },
    ],
  );
  const note = incidents
    .command('note')
    .description("add a note to an incident's timeline")
    .argument('<id>', "the incident's id")
    .argument('<text>', 'the note')
    .option('--json', "the API's answer as JSON")
    .action(async (id: string, text: string, options: { json?: boolean }, command: Command) => {
      const answer = await clientOf(command).incidents.update(id, { note: text });
      if (options.json) printJson(answer);
      else say(`noted on incident ${answer.id}`);
    });
  withExamples(note, [
    { what: 'add a note', run: 'earshot incidents note $INCIDENT_ID "p95 back under 1.2 s"' },
    { what: 'and print the answer as JSON', run: 'earshot incidents note $INCIDENT_ID "watching for an hour" --json' },
  ]);
}
