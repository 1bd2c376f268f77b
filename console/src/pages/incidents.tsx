import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { can } from '../api/session';
import type { Incident, IncidentChange } from '../api/types';
import { toneOf } from '../components/tones';
import { Async, Badge, Empty, ErrorNote, PageHead, Panel } from '../components/ui';
import { formatAgo, formatDateTime, humanize } from '../lib/format';
import { Link } from '../router';
import { useSession } from '../session-context';

interface Moment {
  at: string;
  title: string;
  detail?: string;
  tone: string;
}

/** The incident's life in order: when it started, was opened, every note, and when it was resolved. */
function incidentTimeline(incident: Incident): Moment[] {
  const moments: Moment[] = [];
  if (incident.startedAt) moments.push({ at: incident.startedAt, title: 'Started', tone: 'bad' });
  if (incident.createdAt)
    moments.push({
      at: incident.createdAt,
      title: `Opened${incident.openedBy ? ` by ${incident.openedBy}` : ''}`,
      detail: incident.description ?? undefined,
      tone: 'bad',
    });
  for (const note of incident.notes) moments.push({ at: note.at, title: note.by ? `Note from ${note.by}` : 'Note', detail: note.note, tone: 'accent' });
  if (incident.resolvedAt) moments.push({ at: incident.resolvedAt, title: 'Resolved', tone: 'good' });
  return moments.sort((a, b) => a.at.localeCompare(b.at));
}

function IncidentDetail({ incident }: { incident: Incident }) {
  const { session } = useSession();
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const change = useMutation({
    mutationFn: (body: IncidentChange) => session.api.changeIncident(incident.id, body),
    onSuccess: async () => {
      setNote('');
      await client.invalidateQueries({ queryKey: ['incidents'] });
    },
  });
  const writable = can(session, 'incidents:write');
  const by = session.name ? ` (${session.name})` : '';
  return (
    <Panel
      title={incident.title}
      hint={`${humanize(incident.severity)} severity${incident.affectedAgents.length ? ` · ${incident.affectedAgents.join(', ')}` : ''}`}
      actions={<Badge tone={toneOf(incident.status)}>{humanize(incident.status)}</Badge>}
    >
      <ul class="timeline" data-testid="incident-timeline">
        {incidentTimeline(incident).map((moment, i) => (
          <li key={i}>
            <span class={`dot ${moment.tone}`} />
            <div>
              <strong>{moment.title}</strong> <span class="meta">{formatDateTime(moment.at)}</span>
              {moment.detail && <p style={{ marginTop: '2px' }}>{moment.detail}</p>}
            </div>
          </li>
        ))}
      </ul>
      {writable && incident.status !== 'resolved' && (
        <form
          class="stack"
          style={{ gap: '10px', marginTop: '6px' }}
          onSubmit={(e) => {
            e.preventDefault();
            if (note.trim()) change.mutate({ note: note.trim() });
          }}
        >
          <label class="field">
            Add a note
            <textarea value={note} onInput={(e) => setNote(e.currentTarget.value)} placeholder="What you found, what you changed…" />
          </label>
          {change.error && <ErrorNote error={change.error} />}
          <div class="row wrap" style={{ justifyContent: 'flex-end' }}>
            <button type="submit" class="button" disabled={change.isPending || !note.trim()}>
              Add note
            </button>
            {incident.status === 'open' && (
              <button
                type="button"
                class="button"
                disabled={change.isPending}
                onClick={() => change.mutate({ status: 'acknowledged', note: note.trim() || `Acknowledged from the console${by}` })}
              >
                Acknowledge
              </button>
            )}
            <button
              type="button"
              class="button primary"
              disabled={change.isPending}
              onClick={() => change.mutate({ status: 'resolved', note: note.trim() || `Resolved from the console${by}` })}
            >
              Resolve
            </button>
          </div>
        </form>
      )}
    </Panel>
  );
}

export function IncidentsPage({ selected }: { selected: string | null }) {
  const api = useSession().session.api;
  const incidents = useQuery({ queryKey: ['incidents'], queryFn: () => api.incidents(), refetchInterval: 30_000 });
  return (
    <>
      <PageHead title="Incidents" sub="What went wrong, who is on it, and how it ended." />
      <Async query={incidents}>
        {(items) => {
          const ordered = [...items].sort(
            (a, b) => Number(a.status === 'resolved') - Number(b.status === 'resolved') || (b.startedAt ?? '').localeCompare(a.startedAt ?? ''),
          );
          const current = ordered.find((i) => i.id === selected) ?? ordered[0];
          if (!current) return <Empty>No incidents. Alerts open them, and so can POST /api/v1/incidents.</Empty>;
          return (
            <div class="grid wide-left">
              <Panel title="All incidents" flush>
                <table class="data" data-testid="incidents">
                  <caption class="sr-only">Incidents</caption>
                  <thead>
                    <tr>
                      <th scope="col">Incident</th>
                      <th scope="col">Severity</th>
                      <th scope="col">Status</th>
                      <th scope="col">Started</th>
                    </tr>
                  </thead>
                  <tbody>
                    {ordered.map((incident) => (
                      <tr key={incident.id} class={incident.id === current.id ? 'selected' : undefined}>
                        <td>
                          <Link href={`/incidents/${encodeURIComponent(incident.id)}`} aria-current={incident.id === current.id ? 'true' : undefined}>
                            {incident.title}
                          </Link>
                        </td>
                        <td>
                          <Badge tone={toneOf(incident.severity)}>{humanize(incident.severity)}</Badge>
                        </td>
                        <td>
                          <Badge tone={toneOf(incident.status)}>{humanize(incident.status)}</Badge>
                        </td>
                        <td class="num">{formatAgo(incident.startedAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Panel>
              <IncidentDetail incident={current} />
            </div>
          );
        }}
      </Async>
    </>
  );
}
