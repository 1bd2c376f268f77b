import { useQuery } from '@tanstack/react-query';
import { can } from '../api/session';
import type { CallDetail, Outcome, TraceReference } from '../api/types';
import { toneOf } from '../components/tones';
import { Async, Badge, Empty, PageHead, Panel } from '../components/ui';
import { Waterfall } from '../components/waterfall';
import { formatDateTime, formatDuration, formatMs, formatOffset, formatUsd, humanize } from '../lib/format';
import { Link } from '../router';
import { useSession } from '../session-context';
import { P95_TARGET_MS } from './overview';

const TRACE_LABELS: Record<string, string> = {
  tool_call: 'Tool call',
  handoff: 'Hand-off',
  provider_error: 'Provider error',
  workflow_state: 'Workflow',
  audio_stream: 'Audio stream',
};

function traceTone(trace: TraceReference): string {
  if (trace.kind === 'provider_error' || trace.status === 'failed') return 'bad';
  if (trace.kind === 'handoff') return 'warn';
  if (trace.kind === 'tool_call') return 'accent';
  return '';
}

/** What happened in the call besides speech, in order: tool calls, hand-offs, transfers, provider errors, workflow steps. */
function CallEvents({ call }: { call: CallDetail }) {
  const traces = call.traces.filter((t) => t.kind !== 'audio_stream').sort((a, b) => (a.startedAt ?? '').localeCompare(b.startedAt ?? ''));
  const started = Date.parse(call.startedAt);
  const transferred = call.status === 'escalated' || (call.endReason ?? '').includes('transfer');
  if (traces.length === 0 && !transferred) return <Empty>No tool calls, hand-offs or errors in this call.</Empty>;
  return (
    <ul class="timeline" data-testid="call-events">
      {traces.map((trace) => (
        <li key={`${trace.kind}-${trace.traceId}`}>
          <span class={`dot ${traceTone(trace)}`} />
          <div>
            <div class="row wrap">
              <strong>{TRACE_LABELS[trace.kind] ?? humanize(trace.kind)}</strong>
              <span>{trace.name}</span>
              {trace.kind !== 'workflow_state' && (
                <Badge tone={trace.status === 'failed' || trace.kind === 'provider_error' ? 'bad' : toneOf(trace.status)}>{humanize(trace.status)}</Badge>
              )}
            </div>
            <p class="meta">
              {trace.startedAt ? formatOffset(Date.parse(trace.startedAt) - started) : '—'}
              {trace.durationMs !== null ? ` · ${formatMs(trace.durationMs)}` : ''}
            </p>
          </div>
        </li>
      ))}
      {transferred && (
        <li>
          <span class="dot warn" />
          <div>
            <strong>Transferred</strong>
            <p class="meta">{call.endReason ? humanize(call.endReason) : 'to a person'}</p>
          </div>
        </li>
      )}
    </ul>
  );
}

function Facts({ call, outcomes }: { call: CallDetail; outcomes: Outcome[] | undefined }) {
  const revenue = (outcomes ?? []).reduce((sum, o) => sum + (o.revenueUsd ?? 0), 0);
  const facts: [string, string][] = [
    ['Started', formatDateTime(call.startedAt)],
    ['Duration', formatDuration(call.durationMs)],
    ['Median turn', formatMs(call.latency.totalMs)],
    ['Turns', `${call.turnCount}${call.interruptions ? ` · ${call.interruptions} interrupted` : ''}`],
    ['Quality', call.qualityScore === null ? '—' : call.qualityScore.toFixed(2)],
    ['Cost', formatUsd(call.costUsd)],
    [
      'Outcome',
      outcomes && outcomes.length > 0
        ? outcomes.map((o) => humanize(o.type)).join(', ')
        : call.success === null
          ? '—'
          : call.success
            ? 'Succeeded'
            : 'Did not succeed',
    ],
    ['Revenue', outcomes && outcomes.some((o) => o.revenueUsd !== undefined && o.revenueUsd !== null) ? formatUsd(revenue) : '—'],
    ['Ended because', call.endReason ? humanize(call.endReason) : '—'],
    ['Provider', `${call.provider}${call.direction ? ` · ${call.direction}` : ''}`],
    ['Agent version', call.agentVersion ?? '—'],
    ['Customer', call.customerId ?? '—'],
  ];
  return (
    <dl class="facts" data-testid="call-facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd class="num">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function CallDetailPage({ id }: { id: string }) {
  const { session } = useSession();
  const api = session.api;
  const call = useQuery({
    queryKey: ['call', id],
    queryFn: () => api.call(id),
    refetchInterval: (q) => (q.state.data?.status === 'in_progress' ? 5_000 : false),
  });
  const outcomes = useQuery({ queryKey: ['outcomes', id], queryFn: () => api.outcomes(id), enabled: can(session, 'outcomes:read') });

  return (
    <Async query={call} rows={8}>
      {(c) => (
        <>
          <PageHead
            crumbs={
              <>
                <Link href="/calls">Calls</Link> / <span class="mono">{c.id.slice(0, 8)}</span>
              </>
            }
            title={
              <span class="row">
                {c.agentId} <Badge tone={toneOf(c.status)}>{humanize(c.status)}</Badge>
              </span>
            }
            sub={c.summary ?? `${c.provider} call ${c.providerCallId}`}
          />
          <div class="stack">
            <Panel label="Call facts">
              <Facts call={c} outcomes={outcomes.data} />
              {c.recordingUrl && (
                <div style={{ marginTop: '16px' }}>
                  <p class="muted" style={{ fontSize: '12.5px', marginBottom: '6px' }}>
                    Recording (loads from the provider when played)
                  </p>
                  <audio controls preload="none" src={c.recordingUrl} style={{ width: '100%' }} aria-label="Call recording" />
                </div>
              )}
            </Panel>
            <div class="grid wide-left">
              <Panel title="Turn latency" hint="Each turn from the end of the caller's speech to the agent's first audio.">
                {c.turns.length === 0 ? (
                  <Empty>No turns were measured in this call.</Empty>
                ) : (
                  <Waterfall turns={c.turns} targetMs={P95_TARGET_MS} startedAt={c.startedAt} />
                )}
              </Panel>
              <Panel title="Transcript">
                {c.transcript.length === 0 ? (
                  <Empty>No transcript.</Empty>
                ) : (
                  <div class="transcript" data-testid="transcript" tabIndex={0} aria-label="Transcript">
                    {c.transcript.map((segment, i) => (
                      <div key={i} class={`utterance ${segment.speaker}`}>
                        <span class="when">{segment.startMs !== null ? formatOffset(segment.startMs) : formatDateTime(segment.occurredAt)}</span>
                        <div>
                          <div class="who">{segment.speaker}</div>
                          <p>{segment.text}</p>
                        </div>
                      </div>
                    ))}
                  </div>
                )}
              </Panel>
            </div>
            <Panel title="Tools, hand-offs and errors">
              <CallEvents call={c} />
            </Panel>
          </div>
        </>
      )}
    </Async>
  );
}
