import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './api/session';

export interface SessionContextValue {
  session: Session;
  signOut(message?: string): void;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in page');
  return value;
}

export const useApi = () => useSession().session.api;
