import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { can } from '../api/session';
import { familyOf, METRIC_FAMILIES, metricName, PERCENTILES } from '../api/metric-catalogue';
import type { AlertRule, NewAlertRule } from '../api/types';
import { toneOf } from '../components/tones';
import { Async, Badge, Empty, ErrorNote, PageHead, Panel } from '../components/ui';
import { formatAgo, formatMetric, humanize } from '../lib/format';
import { useSession } from '../session-context';

type Comparison = NewAlertRule['comparison'];
type Severity = NonNullable<NewAlertRule['severity']>;
const COMPARISONS: { id: Comparison; label: string }[] = [
  { id: 'gt', label: 'above' },
  { id: 'gte', label: 'at or above' },
  { id: 'lt', label: 'below' },
  { id: 'lte', label: 'at or below' },
];
const SEVERITIES: Severity[] = ['critical', 'warning', 'info'];
const comparisonWord = (c: string) => COMPARISONS.find((x) => x.id === c)?.label ?? c;

interface Draft {
  name: string;
  family: string;
  stat: string;
  agentId: string;
  comparison: Comparison;
  threshold: string;
  windowMinutes: string;
  forMinutes: string;
  severity: Severity;
}

const EMPTY: Draft = {
  name: '',
  family: 'latency.total_ms',
  stat: 'p95',
  agentId: '',
  comparison: 'gt',
  threshold: '800',
  windowMinutes: '5',
  forMinutes: '0',
  severity: 'warning',
};

function draftOf(rule: AlertRule): Draft {
  const [family, stat] = METRIC_FAMILIES.some((f) => f.id === rule.metric)
    ? [rule.metric, 'p95']
    : [rule.metric.replace(/\.(p50|p95|p99|avg)$/, ''), rule.metric.split('.').at(-1) ?? 'p95'];
  return {
    name: rule.name ?? '',
    family,
    stat,
    agentId: rule.agentId ?? '',
    comparison: rule.comparison,
    threshold: String(rule.threshold),
    windowMinutes: String(rule.windowMs / 60_000),
    forMinutes: String(rule.forMs / 60_000),
    severity: rule.severity ?? 'warning',
  };
}

function RuleForm({ rule, onDone }: { rule: AlertRule | null; onDone: () => void }) {
  const api = useSession().session.api;
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(rule ? draftOf(rule) : EMPTY);
  const set = (changes: Partial<Draft>) => setDraft({ ...draft, ...changes });
  const family = familyOf(draft.family);
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: draft.name.trim() || undefined,
        metric: metricName(family, family.distribution ? (PERCENTILES.find((p) => p === draft.stat) ?? 'avg') : 'avg'),
        comparison: draft.comparison,
        threshold: Number(draft.threshold),
        windowMs: Math.round(Number(draft.windowMinutes) * 60_000),
        forMs: Math.round(Number(draft.forMinutes) * 60_000),
        severity: draft.severity,
      };
      return rule
        ? api.changeRule(rule.id, { ...body, agentId: draft.agentId.trim() || null })
        : api.createRule({ ...body, agentId: draft.agentId.trim() || undefined });
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['rules'] });
      onDone();
    },
  });
  return (
    <form
      aria-label={rule ? `Edit rule ${rule.name ?? rule.id}` : 'New alert rule'}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div class="form-grid">
        <label class="field">
          Name
          <input type="text" value={draft.name} placeholder="p95 turn latency too high" onInput={(e) => set({ name: e.currentTarget.value })} />
        </label>
        <label class="field">
          Metric
          <select value={draft.family} onChange={(e) => set({ family: e.currentTarget.value })}>
            {METRIC_FAMILIES.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        {family.distribution && (
          <label class="field">
            Statistic
            <select value={draft.stat} onChange={(e) => set({ stat: e.currentTarget.value })}>
              {[...PERCENTILES, 'avg'].map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        )}
        <label class="field">
          Fires when
          <select value={draft.comparison} onChange={(e) => set({ comparison: COMPARISONS.find((c) => c.id === e.currentTarget.value)?.id ?? 'gt' })}>
            {COMPARISONS.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          Threshold
          <input type="number" step="any" required value={draft.threshold} onInput={(e) => set({ threshold: e.currentTarget.value })} />
        </label>
        <label class="field">
          Agent (empty for all)
          <input type="text" value={draft.agentId} onInput={(e) => set({ agentId: e.currentTarget.value })} />
        </label>
        <label class="field">
          Window (minutes)
          <input type="number" min={1} max={1440} required value={draft.windowMinutes} onInput={(e) => set({ windowMinutes: e.currentTarget.value })} />
        </label>
        <label class="field">
          Holds for (minutes)
          <input type="number" min={0} max={1440} required value={draft.forMinutes} onInput={(e) => set({ forMinutes: e.currentTarget.value })} />
        </label>
        <label class="field">
          Severity
          <select value={draft.severity} onChange={(e) => set({ severity: SEVERITIES.find((s) => s === e.currentTarget.value) ?? 'warning' })}>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {save.error && (
        <div style={{ marginTop: '12px' }}>
          <ErrorNote error={save.error} />
        </div>
      )}
      <div class="form-actions">
        <button type="button" class="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={save.isPending}>
          {rule ? 'Save rule' : 'Create rule'}
        </button>
      </div>
    </form>
  );
}

export function AlertsPage() {
  const { session } = useSession();
  const api = session.api;
  const client = useQueryClient();
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const alerts = useQuery({ queryKey: ['alerts'], queryFn: () => api.alerts(), refetchInterval: 30_000 });
  const rules = useQuery({ queryKey: ['rules'], queryFn: () => api.rules() });
  const toggle = useMutation({
    mutationFn: (rule: AlertRule) => api.changeRule(rule.id, { enabled: !rule.enabled }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['rules'] }),
  });
  const writable = can(session, 'alerts:write');

  return (
    <>
      <PageHead title="Alerts" sub="Rules over the metric catalogue, and the alerts they fire.">
        {writable && (
          <button type="button" class="button primary" onClick={() => setEditing('new')}>
            New rule
          </button>
        )}
      </PageHead>
      <div class="stack">
        {editing && (
          <Panel title={editing === 'new' ? 'New alert rule' : `Edit ${editing.name ?? editing.id}`}>
            <RuleForm key={editing === 'new' ? 'new' : editing.id} rule={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
          </Panel>
        )}
        <Panel title="Alerts" hint="Firing first, then the most recent that resolved." flush>
          <Async query={alerts}>
            {(items) =>
              items.length === 0 ? (
                <Empty>No alert has fired.</Empty>
              ) : (
                <table class="data" data-testid="alerts">
                  <caption class="sr-only">Alerts</caption>
                  <thead>
                    <tr>
                      <th scope="col">Status</th>
                      <th scope="col">Rule</th>
                      <th scope="col">What happened</th>
                      <th scope="col">Agent</th>
                      <th scope="col">Fired</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...items]
                      .sort((a, b) => Number(b.status === 'firing') - Number(a.status === 'firing') || (b.firedAt ?? '').localeCompare(a.firedAt ?? ''))
                      .map((alert) => (
                        <tr key={alert.id}>
                          <td>
                            <Badge tone={toneOf(alert.status)}>{humanize(alert.status)}</Badge>
                          </td>
                          <td>
                            <strong>{alert.ruleName ?? alert.metric}</strong>
                            <div class="faint">{alert.severity ? humanize(alert.severity) : ''}</div>
                          </td>
                          <td>{alert.message ?? `${alert.metric} at ${alert.value ?? '—'}`}</td>
                          <td>{alert.agentId ?? 'All agents'}</td>
                          <td class="num">{formatAgo(alert.firedAt)}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              )
            }
          </Async>
        </Panel>
        <Panel title="Rules" hint="Evaluated every 30 seconds over the rollups." flush>
          <Async query={rules}>
            {(items) =>
              items.length === 0 ? (
                <Empty>No rules yet.</Empty>
              ) : (
                <table class="data" data-testid="rules">
                  <caption class="sr-only">Alert rules</caption>
                  <thead>
                    <tr>
                      <th scope="col">Rule</th>
                      <th scope="col">Condition</th>
                      <th scope="col">Agent</th>
                      <th scope="col">Severity</th>
                      <th scope="col">State</th>
                      <th scope="col">
                        <span class="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((rule) => (
                      <tr key={rule.id} data-testid="rule-row">
                        <td>
                          <strong>{rule.name ?? rule.id}</strong>
                        </td>
                        <td>
                          <code>{rule.metric}</code> {comparisonWord(rule.comparison)}{' '}
                          {formatMetric(rule.threshold, rule.metric.includes('_ms') ? 'ms' : 'count')} over {rule.windowMs / 60_000} min
                        </td>
                        <td>{rule.agentId ?? 'All agents'}</td>
                        <td>
                          <Badge tone={toneOf(rule.severity ?? 'warning')}>{humanize(rule.severity ?? 'warning')}</Badge>
                        </td>
                        <td>{rule.enabled ? <Badge tone="good">Enabled</Badge> : <Badge>Disabled</Badge>}</td>
                        <td class="right">
                          {writable && (
                            <div class="row" style={{ justifyContent: 'flex-end' }}>
                              <button type="button" class="button small" onClick={() => setEditing(rule)}>
                                Edit
                              </button>
                              <button type="button" class="button small" onClick={() => toggle.mutate(rule)} disabled={toggle.isPending}>
                                {rule.enabled ? 'Disable' : 'Enable'}
                              </button>
                            </div>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )
            }
          </Async>
        </Panel>
      </div>
    </>
  );
}
