import { useState } from 'preact/hooks';
import { signIn, type Session } from '../api/session';
import { Logo } from '../components/icons';

export function SignIn({ message, onSignedIn }: { message: string | null; onSignedIn: (session: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(message);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(key));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <form class="panel" onSubmit={(event) => void submit(event)} aria-labelledby="signin-title">
        <div class="brand">
          <Logo />
          Earshot
        </div>
        <div>
          <h1 id="signin-title">Sign in to the console</h1>
          <p class="muted" style={{ marginTop: '6px' }}>
            Use an API key of your workspace. It stays in this tab only and is sent to this Earshot alone.
          </p>
        </div>
        <label class="field">
          API key
          <input
            type="password"
            name="key"
            autoComplete="off"
            spellcheck={false}
            placeholder="ear_live_…"
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
            required
          />
        </label>
        {error && (
          <div class="notice bad" role="alert">
            {error}
          </div>
        )}
        <button type="submit" class="button primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Checking the key…' : 'Sign in'}
        </button>
        <p class="faint" style={{ fontSize: '12.5px' }}>
          Running locally? <code>npm start</code> prints a console link that signs in with the demonstration key.
        </p>
      </form>
    </main>
  );
}
