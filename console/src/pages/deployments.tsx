import { useQuery } from '@tanstack/react-query';
import type { DeploymentImpact } from '../api/types';
import { Async, Badge, Empty, PageHead, Panel, type Tone } from '../components/ui';
import { formatAgo, formatCount, formatDateTime, formatMetric, formatPercent, humanize } from '../lib/format';
import { Link } from '../router';
import { useApi } from '../session-context';

type ImpactMetric = DeploymentImpact['metrics'][number];

const TESTS: Record<ImpactMetric['test'], string> = { 'mann-whitney': 'Mann–Whitney U', 'two-proportion-z': 'two-proportion z-test' };

/** The significance in words: what changed, whether chance explains it, and by which test. */
function verdict(metric: ImpactMetric): { tone: Tone; text: string; detail: string } {
  const p = metric.pValue === null ? 'not computable' : metric.pValue < 0.001 ? 'p < 0.001' : `p = ${metric.pValue.toFixed(3)}`;
  const detail = `${TESTS[metric.test]}, ${p}`;
  if (metric.pValue === null) return { tone: 'neutral', text: 'Too few samples to tell', detail };
  if (!metric.significant) return { tone: 'neutral', text: 'No significant change', detail };
  return metric.regression ? { tone: 'bad', text: 'Significantly worse', detail } : { tone: 'good', text: 'Significantly better', detail };
}

function Impact({ id }: { id: string }) {
  const api = useApi();
  const impact = useQuery({ queryKey: ['impact', id], queryFn: () => api.impact(id) });
  return (
    <Async query={impact} rows={5}>
      {(report) => (
        <Panel
          title={`${report.deployment.agent} ${report.deployment.version}`}
          hint={`Before: ${formatDateTime(report.before.from)} – ${formatDateTime(report.before.to)} · After: ${formatDateTime(report.after.from)} – ${formatDateTime(report.after.to)}`}
        >
          <div class="stack" data-testid="impact">
            {report.metrics.map((metric) => {
              const v = verdict(metric);
              const largest = Math.max(metric.before.value ?? 0, metric.after.value ?? 0) || 1;
              return (
                <div key={metric.metric} class="stack" style={{ gap: '6px' }}>
                  <div class="row between wrap">
                    <strong>{humanize(metric.metric)}</strong>
                    <span class="row">
                      <Badge tone={v.tone}>{v.text}</Badge>
                      <span class="faint" style={{ fontSize: '12.5px' }}>
                        {v.detail}
                      </span>
                    </span>
                  </div>
                  {(['before', 'after'] as const).map((side) => (
                    <div key={side} class="bar-compare">
                      <span class="muted">{humanize(side)}</span>
                      <div style={{ background: 'var(--surface-2)', borderRadius: '4px' }}>
                        <div class={`bar ${side}`} style={{ width: `${((metric[side].value ?? 0) / largest) * 100}%` }} />
                      </div>
                      <span class="num right" style={{ textAlign: 'right' }}>
                        {formatMetric(metric[side].value, metric.unit)} <span class="faint">n={formatCount(metric[side].samples)}</span>
                      </span>
                    </div>
                  ))}
                  {metric.changePercent !== null && (
                    <p class="faint" style={{ fontSize: '12.5px' }}>
                      Change {metric.changePercent > 0 ? '+' : ''}
                      {formatPercent(metric.changePercent / 100)}
                    </p>
                  )}
                </div>
              );
            })}
            {report.outcomes.length > 0 && (
              <table class="data">
                <caption class="sr-only">Outcomes before and after</caption>
                <thead>
                  <tr>
                    <th scope="col">Outcome</th>
                    <th scope="col" class="right">
                      Before
                    </th>
                    <th scope="col" class="right">
                      After
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {report.outcomes.map((o) => (
                    <tr key={o.type}>
                      <td>{humanize(o.type)}</td>
                      <td class="right num">{formatCount(o.before)}</td>
                      <td class="right num">{formatCount(o.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </Panel>
      )}
    </Async>
  );
}

export function DeploymentsPage({ selected }: { selected: string | null }) {
  const api = useApi();
  const deployments = useQuery({ queryKey: ['deployments'], queryFn: () => api.deployments() });
  return (
    <>
      <PageHead title="Deployments" sub="Each agent release, and what it did to latency, quality and outcomes." />
      <Async query={deployments}>
        {(items) => {
          const current = selected ?? items[0]?.id;
          if (!current) return <Empty>No deployments yet: POST /api/v1/deployments records one.</Empty>;
          return (
            <div class="grid two">
              <Panel title="Releases" flush>
                <table class="data" data-testid="deployments">
                  <caption class="sr-only">Deployments</caption>
                  <thead>
                    <tr>
                      <th scope="col">Agent</th>
                      <th scope="col">Version</th>
                      <th scope="col">Deployed</th>
                      <th scope="col">By</th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((d) => (
                      <tr key={d.id} class={d.id === current ? 'selected' : undefined}>
                        <td>
                          <Link href={`/deployments/${encodeURIComponent(d.id)}`} aria-current={d.id === current ? 'true' : undefined}>
                            {d.agent}
                          </Link>
                        </td>
                        <td>
                          <code>{d.version}</code>
                          {d.previousVersion && <span class="faint"> from {d.previousVersion}</span>}
                        </td>
                        <td class="num">{formatAgo(d.deployedAt)}</td>
                        <td>{d.deployedBy ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Panel>
              <Impact id={current} />
            </div>
          );
        }}
      </Async>
    </>
  );
}
