import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { can } from '../api/session';
import type { ApiKey, NewApiKey, Scope } from '../api/types';
import { toneOf } from '../components/tones';
import { Async, Badge, Empty, ErrorNote, PageHead, Panel } from '../components/ui';
import { formatAgo, formatCents, formatCount, formatDateTime, humanize } from '../lib/format';
import { useSession } from '../session-context';

const OVERLAPS = [
  { seconds: 0, label: 'No overlap' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 7 * 86_400, label: '7 days' },
];
const EXPIRIES = [
  { days: 0, label: 'Never' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
];

/** A secret the API returns once: shown here once, with a way to copy it. */
function OnceSecret({ title, secret, note, onDismiss }: { title: string; secret: string; note: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="notice good" role="status" data-testid="once-secret">
      <strong>{title}</strong> — {note}
      <div class="secret">
        <code data-testid="secret-value">{secret}</code>
        <button
          type="button"
          class="button small"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="button small" onClick={onDismiss}>
          Done
        </button>
      </div>
    </div>
  );
}

function NewKeyForm({ scopes, onCreated, onCancel }: { scopes: readonly Scope[]; onCreated: (secret: string) => void; onCancel: () => void }) {
  const api = useSession().session.api;
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Scope[]>(scopes.filter((s) => s.endsWith(':read')));
  const [environment, setEnvironment] = useState<'production' | 'staging'>('production');
  const [ips, setIps] = useState('');
  const [expiry, setExpiry] = useState(0);
  const create = useMutation({
    mutationFn: () => {
      const body: NewApiKey = {
        name: name.trim(),
        scopes: chosen,
        environment,
        ipAllowlist: ips.trim() ? ips.split(/[\s,]+/).filter(Boolean) : 'any',
        ...(expiry > 0 ? { expiresAt: new Date(Date.now() + expiry * 86_400_000).toISOString() } : {}),
      };
      return api.createKey(body);
    },
    onSuccess: async (issued) => {
      onCreated(issued.secret);
      await client.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  return (
    <form
      aria-label="New API key"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <div class="form-grid">
        <label class="field">
          Name
          <input type="text" required value={name} placeholder="ci-reader" onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label class="field">
          Environment
          <select value={environment} onChange={(e) => setEnvironment(e.currentTarget.value === 'staging' ? 'staging' : 'production')}>
            <option value="production">Production (ear_live_)</option>
            <option value="staging">Staging (ear_test_)</option>
          </select>
        </label>
        <label class="field">
          IP allowlist (empty for any)
          <input type="text" value={ips} placeholder="203.0.113.0/24" onInput={(e) => setIps(e.currentTarget.value)} />
        </label>
        <label class="field">
          Expires
          <select value={expiry} onChange={(e) => setExpiry(Number(e.currentTarget.value))}>
            {EXPIRIES.map((x) => (
              <option key={x.days} value={x.days}>
                {x.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset style={{ marginTop: '14px' }}>
        <legend>Scopes (at most those of the key you signed in with)</legend>
        <div class="checks">
          {scopes.map((scope) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={chosen.includes(scope)}
                onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, scope] : chosen.filter((s) => s !== scope))}
              />
              <code>{scope}</code>
            </label>
          ))}
        </div>
      </fieldset>
      {create.error && (
        <div style={{ marginTop: '12px' }}>
          <ErrorNote error={create.error} />
        </div>
      )}
      <div class="form-actions">
        <button type="button" class="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={create.isPending || chosen.length === 0 || !name.trim()}>
          Create key
        </button>
      </div>
    </form>
  );
}

function Keys() {
  const { session } = useSession();
  const api = session.api;
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [overlap, setOverlap] = useState(86_400);
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => api.keys(), enabled: can(session, 'keys:read') });
  const refresh = () => client.invalidateQueries({ queryKey: ['keys'] });
  const rotate = useMutation({
    mutationFn: (key: ApiKey) => api.rotateKey(key.id, overlap),
    onSuccess: async (r) => (setSecret({ title: `New secret for ${r.key.name}`, value: r.secret }), refresh()),
  });
  const revoke = useMutation({ mutationFn: (key: ApiKey) => api.revokeKey(key.id), onSuccess: refresh });
  const writable = can(session, 'keys:write');
  const ownScopes = session.scopes ? [...session.scopes] : [];

  if (!can(session, 'keys:read')) return <Panel title="API keys">This key lacks the keys:read scope.</Panel>;
  return (
    <Panel
      title="API keys"
      hint="Secrets are shown once, when a key is created or rotated."
      actions={
        writable && (
          <>
            <label class="field" style={{ flexDirection: 'row', alignItems: 'center', gap: '8px' }}>
              Rotation overlap
              <select value={overlap} onChange={(e) => setOverlap(Number(e.currentTarget.value))}>
                {OVERLAPS.map((o) => (
                  <option key={o.seconds} value={o.seconds}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" class="button primary" onClick={() => setCreating(true)}>
              New key
            </button>
          </>
        )
      }
      flush
    >
      <div class="stack" style={{ gap: '14px', padding: creating || secret ? '0 18px 14px' : 0 }}>
        {secret && <OnceSecret title={secret.title} secret={secret.value} note="copy it now: it is not shown again." onDismiss={() => setSecret(null)} />}
        {creating && (
          <NewKeyForm
            scopes={ownScopes}
            onCancel={() => setCreating(false)}
            onCreated={(value) => {
              setCreating(false);
              setSecret({ title: 'Key created', value });
            }}
          />
        )}
        {(rotate.error || revoke.error) && <ErrorNote error={rotate.error ?? revoke.error} />}
      </div>
      <Async query={keys}>
        {(items) => (
          <table class="data" data-testid="keys">
            <caption class="sr-only">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Scopes</th>
                <th scope="col">Env</th>
                <th scope="col">IP</th>
                <th scope="col">Last used</th>
                <th scope="col" class="right">
                  24h
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((key) => (
                <tr key={key.id} data-testid="key-row" data-key-name={key.name}>
                  <td>
                    <strong>{key.name}</strong>
                    {api.key.startsWith(key.prefix) && <div class="faint">this console</div>}
                  </td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td title={key.scopes.join(', ')}>{key.scopes.length === 17 ? 'All' : `${key.scopes.length} scopes`}</td>
                  <td>{humanize(key.environment)}</td>
                  <td>{key.ipAllowlist.length ? key.ipAllowlist.join(', ') : 'Any'}</td>
                  <td>{formatAgo(key.lastUsedAt)}</td>
                  <td class="right num">{formatCount(key.usage24h)}</td>
                  <td>
                    <Badge tone={toneOf(key.status)}>{humanize(key.status)}</Badge>
                    {key.expiresAt && <div class="faint">expires {formatDateTime(key.expiresAt)}</div>}
                  </td>
                  <td class="right">
                    {writable && key.status !== 'revoked' && !api.key.startsWith(key.prefix) && (
                      <div class="row" style={{ justifyContent: 'flex-end' }}>
                        <button
                          type="button"
                          class="button small"
                          onClick={() => rotate.mutate(key)}
                          disabled={rotate.isPending}
                          aria-label={`Rotate ${key.name}`}
                        >
                          Rotate
                        </button>
                        <button
                          type="button"
                          class="button small danger"
                          disabled={revoke.isPending}
                          aria-label={`Revoke ${key.name}`}
                          onClick={() => {
                            if (confirm(`Revoke ${key.name}? Requests with it are refused within a second.`)) revoke.mutate(key);
                          }}
                        >
                          Revoke
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Async>
    </Panel>
  );
}

function WebhookSecret() {
  const { session } = useSession();
  const [overlap, setOverlap] = useState(86_400);
  const rotate = useMutation({ mutationFn: () => session.api.rotateWebhookSecret(overlap) });
  const [shown, setShown] = useState(true);
  return (
    <Panel title="Webhook secret" hint="Signs what providers send to the ingest endpoint. Both secrets verify during the overlap.">
      <div class="stack" style={{ gap: '12px' }}>
        <div class="row wrap" style={{ alignItems: 'flex-end' }}>
          <label class="field">
            Overlap
            <select value={overlap} onChange={(e) => setOverlap(Number(e.currentTarget.value))}>
              {OVERLAPS.map((o) => (
                <option key={o.seconds} value={o.seconds}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            class="button"
            disabled={!can(session, 'keys:write') || rotate.isPending}
            onClick={() => {
              if (confirm('Rotate the webhook secret? Senders must switch to the new one before the overlap ends.')) {
                setShown(true);
                rotate.mutate();
              }
            }}
          >
            Rotate secret
          </button>
        </div>
        {rotate.error && <ErrorNote error={rotate.error} />}
        {rotate.data && shown && (
          <OnceSecret
            title="New webhook secret"
            secret={rotate.data.webhookSecret}
            note={`the previous one verifies until ${formatDateTime(rotate.data.previousValidUntil)}.`}
            onDismiss={() => setShown(false)}
          />
        )}
      </div>
    </Panel>
  );
}

function Billing() {
  const { session } = useSession();
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => session.api.usage(), enabled: can(session, 'usage:read') });
  const invoices = useQuery({ queryKey: ['invoices'], queryFn: () => session.api.invoices(), enabled: can(session, 'billing:read') });
  return (
    <div class="grid two">
      <Panel title="Usage this period" flush>
        <Async query={usage}>
          {(u) => (
            <table class="data" data-testid="usage">
              <caption class="sr-only">Usage meters for the current period</caption>
              <thead>
                <tr>
                  <th scope="col">Meter</th>
                  <th scope="col" class="right">
                    Used
                  </th>
                  <th scope="col" class="right">
                    Included
                  </th>
                  <th scope="col" class="right">
                    Projected
                  </th>
                  <th scope="col" class="right">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {u.period.meters.map((m) => (
                  <tr key={m.meter}>
                    <td>{m.description}</td>
                    <td class="right num">{formatCount(Math.round(m.quantity * 100) / 100)}</td>
                    <td class="right num">{formatCount(m.included)}</td>
                    <td class="right num">{formatCount(Math.round(m.projectedQuantity))}</td>
                    <td class="right num">{formatCents(m.amountCents)}</td>
                  </tr>
                ))}
                <tr>
                  <td>
                    <strong>Total</strong> <span class="faint">(plan {u.period.planId})</span>
                  </td>
                  <td colSpan={3} class="right faint">
                    projected {formatCents(u.period.projectedTotalCents)}
                  </td>
                  <td class="right num">
                    <strong>{formatCents(u.period.totalCents)}</strong>
                  </td>
                </tr>
              </tbody>
            </table>
          )}
        </Async>
      </Panel>
      <Panel title="Invoices" flush>
        <Async query={invoices}>
          {(items) =>
            items.length === 0 ? (
              <Empty>No invoices yet: the first is issued when this period closes.</Empty>
            ) : (
              <table class="data" data-testid="invoices">
                <caption class="sr-only">Invoices</caption>
                <thead>
                  <tr>
                    <th scope="col">Number</th>
                    <th scope="col">Period</th>
                    <th scope="col">Status</th>
                    <th scope="col" class="right">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((invoice) => (
                    <tr key={invoice.id}>
                      <td class="num">#{invoice.number}</td>
                      <td>
                        {formatDateTime(invoice.periodStart)} – {formatDateTime(invoice.periodEnd)}
                      </td>
                      <td>
                        <Badge tone={toneOf(invoice.status)}>{humanize(invoice.status)}</Badge>
                      </td>
                      <td class="right num">{formatCents(invoice.totalCents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Async>
      </Panel>
    </div>
  );
}

export function SettingsPage() {
  return (
    <>
      <PageHead title="Settings" sub="Credentials, usage and invoices of this workspace." />
      <div class="stack">
        <Keys />
        <WebhookSecret />
        <Billing />
      </div>
    </>
  );
}
