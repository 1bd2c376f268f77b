import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeEvent, openStream, type StreamEvent, type StreamState } from '../api/stream';
import { Async, Empty, Kpi, PageHead, Panel } from '../components/ui';
import { formatClock, formatCount, formatDuration, formatMs, formatPercent } from '../lib/format';
import { Link } from '../router';
import { useApi } from '../session-context';

/** The newest events kept on screen; older ones scroll away. */
const KEEP = 300;
const GROUPS = ['call', 'transcript', 'agent', 'tool', 'handoff', 'workflow', 'provider', 'audio', 'recording', 'customer'];

const STATE_TEXT: Record<StreamState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting (resumes where it stopped)…',
  refused: 'The stream refused this key',
};

export function LivePage() {
  const api = useApi();
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [state, setState] = useState<StreamState>('connecting');
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState(0);
  const [group, setGroup] = useState('');
  const [agent, setAgent] = useState('');
  const pausedRef = useRef(false);
  const buffer = useRef<StreamEvent[]>([]);
  pausedRef.current = paused;

  useEffect(
    () =>
      openStream(api.key, {
        onEvent: (event) => {
          buffer.current.unshift(event);
          buffer.current.length = Math.min(buffer.current.length, KEEP);
          if (pausedRef.current) setHeld((n) => n + 1);
          else setEvents([...buffer.current]);
        },
        onState: setState,
      }),
    [api.key],
  );

  const inProgress = useQuery({ queryKey: ['calls-in-progress'], queryFn: () => api.calls({ status: 'in_progress', limit: 50 }), refetchInterval: 5_000 });
  const realtime = useQuery({ queryKey: ['realtime'], queryFn: () => api.realtime(), refetchInterval: 5_000 });
  const shown = events.filter((e) => (!group || e.type.startsWith(`${group}.`)) && (!agent || (e.call?.agent_id ?? '').includes(agent)));

  const resume = () => {
    setPaused(false);
    setHeld(0);
    setEvents([...buffer.current]);
  };

  return (
    <>
      <PageHead
        title="Live"
        sub={
          <span class="row">
            <span class={state === 'live' ? 'live-dot' : 'live-dot off'} aria-hidden="true" />
            <span data-testid="stream-state">{STATE_TEXT[state]}</span>
          </span>
        }
      />
      <div class="stack">
        <Async query={realtime} rows={1}>
          {(live) => (
            <div class="grid kpis">
              <Kpi label="Calls in progress" value={formatCount(live.concurrentCalls)} />
              <Kpi
                label="Success rate"
                value={live.endedCalls > 0 ? formatPercent(live.successRate) : '—'}
                note={`of ${formatCount(live.endedCalls)} calls ended in ${live.windowSeconds / 60} min`}
              />
              <Kpi label="p95 turn latency" value={live.endedCalls > 0 ? formatMs(live.p95LatencyMs) : '—'} note={`last ${live.windowSeconds / 60} min`} />
            </div>
          )}
        </Async>
        <div class="grid wide-left">
          <Panel
            title="Events"
            hint={paused ? `Paused · ${formatCount(held)} new events held` : 'Newest first, as they are appended to the log.'}
            actions={
              <button type="button" class="button small" aria-pressed={paused} onClick={() => (paused ? resume() : setPaused(true))}>
                {paused ? 'Resume' : 'Pause'}
              </button>
            }
            flush
          >
            <div class="row wrap" style={{ padding: '0 18px 12px', gap: '12px' }}>
              <label class="field">
                Event kind
                <select value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
                  <option value="">All events</option>
                  {GROUPS.map((g) => (
                    <option key={g} value={g}>
                      {g}.*
                    </option>
                  ))}
                </select>
              </label>
              <label class="field">
                Agent
                <input type="search" placeholder="Any agent" value={agent} onInput={(e) => setAgent(e.currentTarget.value.trim())} />
              </label>
            </div>
            <div class="event-list" tabIndex={0} aria-label="Event stream" aria-live={paused ? 'off' : 'polite'} aria-relevant="additions">
              {shown.length === 0 ? (
                <Empty>{events.length === 0 ? 'Waiting for events. Run npx earshot demo to send some.' : 'No event matches the filter.'}</Empty>
              ) : (
                <table class="data" data-testid="event-table">
                  <caption class="sr-only">Events as they arrive</caption>
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Event</th>
                      <th scope="col">Agent</th>
                      <th scope="col">Detail</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.slice(0, 100).map((event) => (
                      <tr key={event.idempotency_key} data-testid="event-row">
                        <td class="num faint">{formatClock(event.occurred_at)}</td>
                        <td>
                          <code>{event.type}</code>
                        </td>
                        <td>{event.call?.agent_id ?? '—'}</td>
                        <td style={{ maxWidth: '360px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{describeEvent(event)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          </Panel>
          <Panel title="Calls in progress" flush>
            <Async query={inProgress}>
              {(page) =>
                page.items.length === 0 ? (
                  <Empty>No call is in progress.</Empty>
                ) : (
                  <table class="data" data-testid="in-progress">
                    <caption class="sr-only">Calls in progress</caption>
                    <thead>
                      <tr>
                        <th scope="col">Agent</th>
                        <th scope="col" class="right">
                          Turns
                        </th>
                        <th scope="col" class="right">
                          Running
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.items.map((call) => (
                        <tr key={call.id}>
                          <td>
                            <Link href={`/calls/${call.id}`}>{call.agentId}</Link>
                          </td>
                          <td class="right num">{call.turnCount}</td>
                          <td class="right num">{formatDuration(Date.now() - Date.parse(call.startedAt))}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )
              }
            </Async>
          </Panel>
        </div>
      </div>
    </>
  );
}
