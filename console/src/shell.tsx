/** The frame around every signed-in page: navigation (only what the key's scopes allow) and the page for the path. */
import type { ComponentChildren } from 'preact';
import { can } from './api/session';
import type { Scope } from './api/types';
import { Icon, Logo, type IconName } from './components/icons';
import { Empty } from './components/ui';
import { AlertsPage } from './pages/alerts';
import { CallDetailPage } from './pages/call-detail';
import { CallsPage } from './pages/calls';
import { DeploymentsPage } from './pages/deployments';
import { IncidentsPage } from './pages/incidents';
import { LivePage } from './pages/live';
import { MetricsPage } from './pages/metrics';
import { OverviewPage } from './pages/overview';
import { SettingsPage } from './pages/settings';
import { Link, match, useLocation } from './router';
import { useSession } from './session-context';

interface Section {
  path: string;
  label: string;
  icon: IconName;
  scope: Scope | null;
}

const SECTIONS: Section[] = [
  { path: '/', label: 'Overview', icon: 'overview', scope: 'metrics:read' },
  { path: '/calls', label: 'Calls', icon: 'calls', scope: 'calls:read' },
  { path: '/live', label: 'Live', icon: 'live', scope: 'calls:read' },
  { path: '/metrics', label: 'Metrics', icon: 'metrics', scope: 'metrics:read' },
  { path: '/alerts', label: 'Alerts', icon: 'alerts', scope: 'alerts:read' },
  { path: '/incidents', label: 'Incidents', icon: 'incidents', scope: 'incidents:read' },
  { path: '/deployments', label: 'Deployments', icon: 'deployments', scope: 'deployments:read' },
  { path: '/settings', label: 'Settings', icon: 'settings', scope: null },
];

function page(path: string): ComponentChildren {
  const call = match('/calls/:id', path);
  if (call?.id) return <CallDetailPage id={call.id} />;
  const deployment = match('/deployments/:id', path);
  if (deployment?.id) return <DeploymentsPage selected={deployment.id} />;
  const incident = match('/incidents/:id', path);
  if (incident?.id) return <IncidentsPage selected={incident.id} />;
  switch (path) {
    case '/':
      return <OverviewPage />;
    case '/calls':
      return <CallsPage />;
    case '/live':
      return <LivePage />;
    case '/metrics':
      return <MetricsPage />;
    case '/alerts':
      return <AlertsPage />;
    case '/incidents':
      return <IncidentsPage selected={null} />;
    case '/deployments':
      return <DeploymentsPage selected={null} />;
    case '/settings':
      return <SettingsPage />;
    default:
      return <Empty>There is no page at {path}.</Empty>;
  }
}

const sectionOf = (path: string) => SECTIONS.find((s) => (s.path === '/' ? path === '/' : path === s.path || path.startsWith(`${s.path}/`)));

export function Shell() {
  const { path } = useLocation();
  const auth = useSession();
  const { session } = auth;
  const current = sectionOf(path);
  const visible = SECTIONS.filter((s) => s.scope === null || can(session, s.scope));
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <aside class="sidebar">
        <Link href="/" class="brand" aria-label="Earshot console, overview">
          <Logo />
          Earshot
        </Link>
        <nav class="nav" aria-label="Console">
          {visible.map((s) => (
            <Link key={s.path} href={s.path} aria-current={current === s ? 'page' : undefined}>
              <Icon name={s.icon} />
              {s.label}
            </Link>
          ))}
        </nav>
        <div class="whoami">
          <span>
            Signed in with <strong>{session.name ?? 'an API key'}</strong>
          </span>
          <code>{session.prefix}…</code>
          <button type="button" class="button small" onClick={() => auth.signOut()}>
            Sign out
          </button>
        </div>
      </aside>
      <main class="main" id="main">
        {current?.scope && !can(session, current.scope) ? <Empty>This API key lacks the {current.scope} scope this page needs.</Empty> : page(path)}
      </main>
    </div>
  );
}
