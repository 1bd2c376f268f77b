/** The console's building blocks: panels, figures, badges and the states a panel can be in. */
import type { ComponentChildren } from 'preact';
import { ApiFailure } from '../api/client';

export function PageHead({
  title,
  sub,
  crumbs,
  children,
}: {
  title: ComponentChildren;
  sub?: ComponentChildren;
  crumbs?: ComponentChildren;
  children?: ComponentChildren;
}) {
  return (
    <header class="page-head">
      <div>
        {crumbs && (
          <nav class="crumbs" aria-label="Breadcrumb">
            {crumbs}
          </nav>
        )}
        <h1>{title}</h1>
        {sub && <p class="sub">{sub}</p>}
      </div>
      {children && <div class="toolbar">{children}</div>}
    </header>
  );
}

export function Panel({
  title,
  hint,
  actions,
  flush,
  children,
  label,
}: {
  title?: ComponentChildren;
  hint?: ComponentChildren;
  actions?: ComponentChildren;
  flush?: boolean;
  children: ComponentChildren;
  label?: string;
}) {
  return (
    <section class="panel" aria-label={label ?? (typeof title === 'string' ? title : undefined)}>
      {(title || actions) && (
        <div class="panel-head">
          <div>
            {title && <h2>{title}</h2>}
            {hint && <p class="hint">{hint}</p>}
          </div>
          {actions && <div class="row">{actions}</div>}
        </div>
      )}
      <div class={flush ? 'panel-body flush' : 'panel-body'}>{children}</div>
    </section>
  );
}

export function Kpi({
  label,
  value,
  note,
  tone,
  testId,
}: {
  label: string;
  value: ComponentChildren;
  note?: ComponentChildren;
  tone?: 'good' | 'bad';
  testId?: string;
}) {
  return (
    <div class="panel kpi" data-testid={testId}>
      <span class="label">{label}</span>
      <span class={tone ? `value ${tone}` : 'value'}>{value}</span>
      {note && <span class="note">{note}</span>}
    </div>
  );
}

export type Tone = 'good' | 'warn' | 'bad' | 'info' | 'accent' | 'neutral';

export function Badge({ tone = 'neutral', plain, children }: { tone?: Tone; plain?: boolean; children: ComponentChildren }) {
  return <span class={`badge ${tone}${plain ? ' plain' : ''}`}>{children}</span>;
}

export const Empty = ({ children }: { children: ComponentChildren }) => <div class="empty">{children}</div>;

function Loading({ rows = 3 }: { rows?: number }) {
  return (
    <div class="stack" style={{ gap: '10px', padding: '8px 0' }} aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} class="skeleton" style={{ width: `${90 - i * 12}%` }} />
      ))}
    </div>
  );
}

/** An API failure in words: a missing scope says which, anything else says what the API said. */
export function ErrorNote({ error }: { error: unknown }) {
  if (error instanceof ApiFailure && error.status === 403)
    return (
      <div class="notice warn" role="status">
        This API key may not see this: {error.message}.
      </div>
    );
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div class="notice bad" role="alert">
      {message}
    </div>
  );
}

/** A query's three states, one way everywhere. */
export function Async<T>({
  query,
  rows,
  children,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean };
  rows?: number;
  children: (data: T) => ComponentChildren;
}) {
  if (query.error) return <ErrorNote error={query.error} />;
  if (query.isPending || query.data === undefined) return <Loading rows={rows} />;
  return <>{children(query.data)}</>;
}
