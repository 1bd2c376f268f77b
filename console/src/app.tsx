import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiFailure } from './api/client';
import { forgetKey, signIn, storedKey, type Session } from './api/session';
import { Shell } from './shell';
import { SignIn } from './pages/sign-in';
import { SessionContext } from './session-context';

const retry = (count: number, error: unknown) => !(error instanceof ApiFailure && error.status < 500) && count < 2;

export function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [checking, setChecking] = useState(() => storedKey() !== null);
  const [message, setMessage] = useState<string | null>(null);

  const signOut = (why?: string) => {
    forgetKey();
    setSession(null);
    setMessage(why ?? null);
  };

  const client = useMemo(() => {
    // A key revoked or expired while the console is open: back to sign-in, saying why.
    const onError = (error: unknown) => {
      if (error instanceof ApiFailure && error.status === 401) signOut(`Signed out: ${error.message}`);
    };
    return new QueryClient({
      queryCache: new QueryCache({ onError }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: { queries: { staleTime: 15_000, retry, refetchOnWindowFocus: false } },
    });
  }, []);

  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    signIn(key)
      .then(setSession)
      .catch((error: unknown) => {
        forgetKey();
        setMessage(error instanceof Error ? error.message : String(error));
      })
      .finally(() => setChecking(false));
  }, []);

  if (checking) return <div class="signin" aria-busy="true" />;
  if (!session)
    return (
      <SignIn
        message={message}
        onSignedIn={(s) => {
          client.clear();
          setMessage(null);
          setSession(s);
        }}
      />
    );
  return (
    <QueryClientProvider client={client}>
      <SessionContext.Provider value={{ session, signOut }}>
        <Shell />
      </SessionContext.Provider>
    </QueryClientProvider>
  );
}
