import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { can } from '../api/session';
import { familyOf, METRIC_FAMILIES, metricName, PERCENTILES, type Percentile } from '../api/metric-catalogue';
import type { MetricInterval } from '../api/types';
import { Chart, type ChartSeries } from '../components/chart';
import { RangeSelect, useRange } from '../components/range-select';
import { Async, Empty, PageHead, Panel } from '../components/ui';
import { formatDateTime, formatMetric } from '../lib/format';
import { intervalFor, intervalsFor, isIntervalId, peakOf, zoomWindow, type TimeWindow } from '../lib/range';
import { setQuery, useLocation } from '../router';
import { useSession } from '../session-context';
import { P95_TARGET_MS } from './overview';

const COLORS = ['--series-1', '--series-2', '--series-3', '--series-4', '--series-5'];
/** The same colour for a percentile on every chart. */
const STAT_COLORS: Record<string, string> = { p50: '--series-2', p95: '--series-1', p99: '--series-4', avg: '--series-1' };
const EACH_AGENT = '*';

export function MetricsPage() {
  const { session } = useSession();
  const api = session.api;
  const { query } = useLocation();
  const { range, window: rangeWindow } = useRange('1h');
  const family = familyOf(query.get('metric'));
  const stats = (query.get('stats') ?? 'p50,p95,p99').split(',').filter((s): s is Percentile => PERCENTILES.some((p) => p === s));
  const agent = query.get('agent') ?? '';
  const zoomFrom = Date.parse(query.get('from') ?? '');
  const zoomTo = Date.parse(query.get('to') ?? '');
  const zoomed = Number.isFinite(zoomFrom) && Number.isFinite(zoomTo) && zoomTo > zoomFrom;
  const window: TimeWindow = zoomed ? { from: new Date(zoomFrom), to: new Date(zoomTo) } : rangeWindow;
  const choices = intervalsFor(window);
  const askedInterval = query.get('interval');
  const interval: MetricInterval = isIntervalId(askedInterval) && choices.includes(askedInterval) ? askedInterval : intervalFor(window);

  const deployments = useQuery({ queryKey: ['deployments'], queryFn: () => api.deployments(), enabled: can(session, 'deployments:read') });
  const agents = [...new Set((deployments.data ?? []).map((d) => d.agent))].sort();
  const shownStats: (Percentile | 'avg')[] = family.distribution
    ? agent === EACH_AGENT
      ? [stats[1] ?? stats[0] ?? 'p95']
      : stats.length > 0
        ? stats
        : ['p95']
    : ['avg'];
  const lines =
    agent === EACH_AGENT ? agents.map((a) => ({ agent: a, stat: shownStats[0] ?? 'p95' })) : shownStats.map((stat) => ({ agent: agent || undefined, stat }));

  const span = { from: window.from.toISOString(), to: window.to.toISOString(), interval };
  const series = useQuery({
    queryKey: ['metric', family.id, lines, span],
    queryFn: () => Promise.all(lines.map((line) => api.metric({ name: metricName(family, line.stat), agentId: line.agent, ...span }))),
    placeholderData: keepPreviousData,
  });

  const toggleStat = (stat: Percentile) => {
    const next = stats.includes(stat) ? stats.filter((s) => s !== stat) : [...stats, stat];
    setQuery({ stats: PERCENTILES.filter((p) => next.includes(p)).join(',') || 'p95' });
  };

  return (
    <>
      <PageHead title="Metrics" sub="Any metric of the catalogue over time; drag across the chart to zoom.">
        <label class="field">
          Metric
          <select value={family.id} onChange={(e) => setQuery({ metric: e.currentTarget.value })}>
            {METRIC_FAMILIES.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          Agent
          <select value={agent} onChange={(e) => setQuery({ agent: e.currentTarget.value })}>
            <option value="">All agents</option>
            {agents.length > 0 && <option value={EACH_AGENT}>Each agent</option>}
            {agents.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <RangeSelect range={range} />
      </PageHead>
      <Panel
        title={family.label}
        hint={`${formatDateTime(window.from.toISOString())} – ${formatDateTime(window.to.toISOString())}${zoomed ? ' (zoomed)' : ''}`}
        actions={
          <>
            {family.distribution && agent !== EACH_AGENT && (
              <div class="segmented" role="group" aria-label="Percentiles">
                {PERCENTILES.map((p) => (
                  <button key={p} type="button" aria-pressed={stats.includes(p)} onClick={() => toggleStat(p)}>
                    {p}
                  </button>
                ))}
              </div>
            )}
            <div class="segmented" role="group" aria-label="Interval">
              {choices.map((i) => (
                <button key={i} type="button" aria-pressed={i === interval} onClick={() => setQuery({ interval: i })}>
                  {i}
                </button>
              ))}
            </div>
            {zoomed && (
              <button type="button" class="button small" onClick={() => setQuery({ from: undefined, to: undefined })}>
                Reset zoom
              </button>
            )}
          </>
        }
      >
        <Async query={series} rows={6}>
          {(results) => {
            const first = results[0];
            if (!first || results.every((r) => r.points.every((p) => p.value === null))) return <Empty>Nothing was measured in this range.</Empty>;
            const chartSeries: ChartSeries[] = results.map((r, i) => ({
              label: agent === EACH_AGENT ? (lines[i]?.agent ?? r.name) : family.distribution ? (lines[i]?.stat ?? r.name) : family.label,
              points: r.points,
              color: agent === EACH_AGENT ? (COLORS[i % COLORS.length] ?? '--series-1') : (STAT_COLORS[lines[i]?.stat ?? 'avg'] ?? '--series-1'),
              bars: !family.distribution && ['count', 'events', 'calls', 'usd'].includes(first.unit),
            }));
            return (
              <>
                <Chart
                  height={320}
                  unit={first.unit}
                  label={`${family.label}: peak ${formatMetric(peakOf(first.points), first.unit)}`}
                  series={chartSeries}
                  target={family.id === 'latency.total_ms' ? { value: P95_TARGET_MS, label: `p95 target ${P95_TARGET_MS} ms` } : undefined}
                  onZoom={(from, to) => {
                    const zoom = zoomWindow(from, to);
                    setQuery({ from: zoom.from.toISOString(), to: zoom.to.toISOString(), interval: undefined }, { replace: false });
                  }}
                />
                <p class="faint" style={{ marginTop: '10px', fontSize: '12.5px' }}>
                  {first.description}
                </p>
              </>
            );
          }}
        </Async>
      </Panel>
    </>
  );
}
