import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'preact/hooks';
import { readAgentLatency, readOverview } from '../api/overview';
import { Chart } from '../components/chart';
import { RangeSelect, useRange } from '../components/range-select';
import { toneOf } from '../components/tones';
import { Async, Badge, Empty, Kpi, PageHead, Panel } from '../components/ui';
import { formatAgo, formatCount, formatMs, formatPercent, humanize } from '../lib/format';
import { intervalFor, peakOf, RANGES, ratioPoints, sumOf, weightedMean } from '../lib/range';
import { Link } from '../router';
import { useApi } from '../session-context';

/** The p95 turn latency voice agents aim under: past it, people notice the pause. */
export const P95_TARGET_MS = 800;

export function OverviewPage() {
  const api = useApi();
  const { range, window } = useRange('1h');
  const span = { from: window.from.toISOString(), to: window.to.toISOString(), interval: intervalFor(window) };
  const overview = useQuery({
    queryKey: ['overview', span],
    queryFn: () => readOverview(api, span),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const agents = useMemo(() => [...new Set(overview.data?.calls?.items.map((c) => c.agentId) ?? [])].sort(), [overview.data]);
  const latency = useQuery({
    queryKey: ['overview-agents', span, agents],
    queryFn: () => readAgentLatency(api, span, agents),
    enabled: agents.length > 0,
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <PageHead title="Overview" sub="Calls, failures and turn latency across every agent.">
        <RangeSelect range={range} />
      </PageHead>
      <Async query={overview} rows={6}>
        {(data) => {
          const total = data.total?.points ?? [];
          const failed = data.failed?.points ?? [];
          const calls = sumOf(total);
          const failures = sumOf(failed);
          const p95 = data.p95?.points ?? [];
          const worstP95 = peakOf(p95);
          const open = data.incidents?.items.filter((i) => i.status !== 'resolved') ?? [];
          const firing = data.alerts?.items ?? [];
          return (
            <div class="stack">
              <div class="grid kpis">
                <Kpi
                  testId="kpi-calls"
                  label="Calls"
                  value={formatCount(calls)}
                  note={`started in the ${RANGES.find((r) => r.id === range)?.label.toLowerCase() ?? range}`}
                />
                <Kpi
                  label="Failure rate"
                  value={formatPercent(calls === 0 ? null : failures / calls)}
                  tone={calls > 0 && failures / calls > 0.05 ? 'bad' : undefined}
                  note={`${formatCount(failures)} failed`}
                />
                <Kpi
                  label="Worst p95 turn latency"
                  value={formatMs(worstP95)}
                  tone={worstP95 !== null && worstP95 > P95_TARGET_MS ? 'bad' : 'good'}
                  note={`target ${formatMs(P95_TARGET_MS)}`}
                />
                <Kpi
                  label="Live now"
                  value={formatCount(data.realtime?.concurrentCalls)}
                  note={
                    data.realtime && data.realtime.endedCalls > 0
                      ? `p95 ${formatMs(data.realtime.p95LatencyMs)} · ${formatPercent(data.realtime.successRate)} succeeded (15 min)`
                      : 'no call ended in 15 min'
                  }
                />
                <Kpi
                  label="Open incidents"
                  value={formatCount(open.length)}
                  tone={open.length > 0 ? 'bad' : undefined}
                  note={`${formatCount(firing.length)} alerts firing`}
                />
              </div>
              <div class="grid two">
                <Panel title="Calls and failure rate" hint="Calls per bucket (bars) and the share that failed (line, right axis).">
                  {calls === 0 ? (
                    <Empty>
                      No calls in this range. Send some with <code>npx earshot demo</code>.
                    </Empty>
                  ) : (
                    <Chart
                      label={`${formatCount(calls)} calls, ${formatPercent(failures / calls)} failed`}
                      unit="count"
                      unit2="ratio"
                      series={[
                        { label: 'Calls', points: total, color: '--series-5', bars: true },
                        { label: 'Failure rate', points: ratioPoints(failed, total), color: '--series-3', axis: 'y2' },
                      ]}
                    />
                  )}
                </Panel>
                <Panel title="Turn latency" hint="Per-turn total, from end of speech to the agent's first audio.">
                  {p95.every((p) => p.value === null) ? (
                    <Empty>No turns measured in this range.</Empty>
                  ) : (
                    <Chart
                      label={`Turn latency percentiles; worst p95 ${formatMs(worstP95)} against an ${P95_TARGET_MS} ms target`}
                      unit="ms"
                      target={{ value: P95_TARGET_MS, label: `p95 target ${P95_TARGET_MS} ms` }}
                      series={[
                        { label: 'p50', points: data.p50?.points ?? [], color: '--series-2' },
                        { label: 'p95', points: p95, color: '--series-1' },
                        { label: 'p99', points: data.p99?.points ?? [], color: '--series-4' },
                      ]}
                    />
                  )}
                </Panel>
              </div>
              <div class="grid wide-left">
                <Panel title="Slowest agents" hint="p95 turn latency, weighted by each bucket's turns." flush>
                  <Async query={{ ...latency, isPending: agents.length > 0 && latency.isPending }}>
                    {(rows) => {
                      const ranked = (rows ?? [])
                        .map((row) => ({
                          ...row,
                          p95: weightedMean(row.p95?.points ?? [], row.turns?.points ?? []),
                          worst: peakOf(row.p95?.points ?? []),
                          calls: sumOf(row.calls?.points ?? []),
                        }))
                        .sort((a, b) => (b.p95 ?? -1) - (a.p95 ?? -1));
                      if (ranked.length === 0) return <Empty>No agent took calls in this range.</Empty>;
                      return (
                        <table class="data" data-testid="slowest-agents">
                          <caption class="sr-only">Agents by p95 turn latency</caption>
                          <thead>
                            <tr>
                              <th scope="col">Agent</th>
                              <th scope="col" class="right">
                                Calls
                              </th>
                              <th scope="col" class="right">
                                p95
                              </th>
                              <th scope="col" class="right">
                                Worst p95
                              </th>
                            </tr>
                          </thead>
                          <tbody>
                            {ranked.map((row) => (
                              <tr key={row.agentId}>
                                <td>
                                  <Link href={`/calls?agent=${encodeURIComponent(row.agentId)}&range=${range}`}>{row.agentId}</Link>
                                </td>
                                <td class="right num">{formatCount(row.calls)}</td>
                                <td class="right num" style={row.p95 !== null && row.p95 > P95_TARGET_MS ? { color: 'var(--bad)' } : undefined}>
                                  {formatMs(row.p95)}
                                </td>
                                <td class="right num">{formatMs(row.worst)}</td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      );
                    }}
                  </Async>
                </Panel>
                <div class="stack">
                  <Panel title="Open incidents" actions={<Link href="/incidents">All incidents</Link>}>
                    {open.length === 0 ? (
                      <p class="muted">Nothing open.</p>
                    ) : (
                      <ul class="timeline" data-testid="open-incidents">
                        {open.map((incident) => (
                          <li key={incident.id}>
                            <span class={`dot ${toneOf(incident.severity)}`} />
                            <div>
                              <Link href={`/incidents/${encodeURIComponent(incident.id)}`}>{incident.title}</Link>
                              <div class="row wrap" style={{ marginTop: '4px' }}>
                                <Badge tone={toneOf(incident.status)}>{humanize(incident.status)}</Badge>
                                <span class="meta">
                                  {humanize(incident.severity)} · started {formatAgo(incident.startedAt)}
                                </span>
                              </div>
                            </div>
                          </li>
                        ))}
                      </ul>
                    )}
                  </Panel>
                  <Panel title="Firing alerts" actions={<Link href="/alerts">Alerts</Link>}>
                    {firing.length === 0 ? (
                      <p class="muted">No alert is firing.</p>
                    ) : (
                      <ul class="timeline">
                        {firing.map((alert) => (
                          <li key={alert.id}>
                            <span class="dot bad" />
                            <div>
                              <strong>{alert.ruleName}</strong>
                              <p class="meta">
                                {alert.message} · {formatAgo(alert.firedAt)}
                              </p>
                            </div>
                          </li>
                        ))}
                      </ul>
                    )}
                  </Panel>
                </div>
              </div>
            </div>
          );
        }}
      </Async>
    </>
  );
}
