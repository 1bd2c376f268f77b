import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { useRef } from 'preact/hooks';
import { can } from '../api/session';
import type { Call, CallSort, CallStatus } from '../api/types';
import { DataTable } from '../components/data-table';
import { RangeSelect, useRange } from '../components/range-select';
import { toneOf } from '../components/tones';
import { Async, Badge, Empty, PageHead, Panel } from '../components/ui';
import { formatDateTime, formatDuration, formatMs, formatUsd, humanize } from '../lib/format';
import { Link, setQuery, useLocation } from '../router';
import { useSession } from '../session-context';

const STATUSES: CallStatus[] = ['completed', 'failed', 'in_progress', 'abandoned', 'escalated'];
const SORTABLE: Record<string, CallSort> = { startedAt: 'startedAt', durationMs: 'durationMs', qualityScore: 'qualityScore' };
const PAGE_SIZE = 50;

const isStatus = (value: string | null): value is CallStatus => STATUSES.some((s) => s === value);
const isSort = (value: string | null): value is CallSort => value !== null && Object.values(SORTABLE).includes(value.replace(/^-/, '') as CallSort);

const column = createColumnHelper<Call>();
const columns = [
  column.accessor('startedAt', { header: 'Started', cell: (c) => <Link href={`/calls/${c.row.original.id}`}>{formatDateTime(c.getValue())}</Link> }),
  column.accessor('agentId', { header: 'Agent', enableSorting: false }),
  column.accessor('status', { header: 'Status', enableSorting: false, cell: (c) => <Badge tone={toneOf(c.getValue())}>{humanize(c.getValue())}</Badge> }),
  column.accessor('durationMs', { header: 'Duration', meta: { right: true }, cell: (c) => formatDuration(c.getValue()) }),
  column.accessor('turnCount', { header: 'Turns', enableSorting: false, meta: { right: true } }),
  column.accessor((c) => c.latency.totalMs, {
    id: 'latency',
    header: 'Median turn',
    enableSorting: false,
    meta: { right: true },
    cell: (c) => formatMs(c.getValue()),
  }),
  column.accessor('qualityScore', { header: 'Quality', meta: { right: true }, cell: (c) => (c.getValue() === null ? '—' : (c.getValue() ?? 0).toFixed(2)) }),
  column.accessor('costUsd', { header: 'Cost', enableSorting: false, meta: { right: true }, cell: (c) => formatUsd(c.getValue()) }),
  column.accessor('provider', { header: 'Provider', enableSorting: false }),
];

export function CallsPage() {
  const { session } = useSession();
  const api = session.api;
  const { query } = useLocation();
  const { range, window } = useRange();
  const agent = query.get('agent') ?? '';
  const askedStatus = query.get('status');
  const status = isStatus(askedStatus) ? askedStatus : undefined;
  const askedSort = query.get('sort');
  const sort: CallSort = isSort(askedSort) ? askedSort : '-startedAt';
  const cursor = query.get('cursor') ?? undefined;
  // The cursors of the pages before this one, for "Previous"; keyset paging only knows the way forward.
  const trail = useRef<string[]>([]);

  const filters = { agentId: agent || undefined, status, from: window.from.toISOString(), to: window.to.toISOString(), sort, limit: PAGE_SIZE };
  const page = useQuery({ queryKey: ['calls', filters, cursor], queryFn: () => api.calls({ ...filters, cursor }), placeholderData: keepPreviousData });
  const deployments = useQuery({ queryKey: ['deployments'], queryFn: () => api.deployments(), enabled: can(session, 'deployments:read') });
  const agents = [
    ...new Set([...(deployments.data ?? []).map((d) => d.agent), ...(page.data?.items ?? []).map((c) => c.agentId), ...(agent ? [agent] : [])]),
  ].sort();

  const refilter = (changes: Record<string, string | undefined>) => {
    trail.current = [];
    setQuery({ ...changes, cursor: undefined });
  };
  const sorting: SortingState = [{ id: sort.replace(/^-/, ''), desc: sort.startsWith('-') }];
  const onSortingChange = (update: SortingState | ((old: SortingState) => SortingState)) => {
    const next = (typeof update === 'function' ? update(sorting) : update)[0];
    const field = next ? SORTABLE[next.id] : undefined;
    if (field) refilter({ sort: next?.desc ? `-${field}` : field });
  };

  return (
    <>
      <PageHead title="Calls" sub="Every call, newest first; open one for its turns and transcript.">
        <label class="field">
          Agent
          <select value={agent} onChange={(e) => refilter({ agent: e.currentTarget.value })}>
            <option value="">All agents</option>
            {agents.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          Status
          <select value={status ?? ''} onChange={(e) => refilter({ status: e.currentTarget.value })}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        </label>
        <RangeSelect range={range} />
      </PageHead>
      <Panel flush label="Calls">
        <Async query={page} rows={8}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No calls match these filters.</Empty>
            ) : (
              <>
                <DataTable
                  caption="Calls"
                  rows={data.items}
                  columns={columns}
                  sorting={sorting}
                  onSortingChange={onSortingChange}
                  hrefOf={(c) => `/calls/${c.id}`}
                  rowTestId="call-row"
                />
                <div class="pager">
                  <span data-testid="calls-shown">
                    Page {trail.current.length + 1} · {data.items.length} calls{page.isPlaceholderData ? ' · loading…' : ''}
                  </span>
                  <div class="row">
                    <button
                      type="button"
                      class="button small"
                      disabled={!cursor}
                      onClick={() => {
                        const previous = trail.current.pop();
                        setQuery({ cursor: previous === '' ? undefined : previous }, { replace: false });
                      }}
                    >
                      Previous
                    </button>
                    <button
                      type="button"
                      class="button small"
                      disabled={!data.nextCursor}
                      onClick={() => {
                        trail.current.push(cursor ?? '');
                        setQuery({ cursor: data.nextCursor ?? undefined }, { replace: false });
                      }}
                    >
                      Next
                    </button>
                  </div>
                </div>
              </>
            )
          }
        </Async>
      </Panel>
    </>
  );
}
