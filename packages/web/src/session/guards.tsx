import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { loginUrlFor } from '../api/authRedirect.js';
import { session } from '../runtime.js';
import { useSession } from './react.js';

function GuardMessage({ text }: { text: string }) {
  return (
    <div className="guard-message" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {text}
    </div>
  );
}

/** Ours: a kept key whose profile could not be read for now (session/store.ts `isTransientFailure`). */
export const SESSION_UNAVAILABLE_MESSAGE = 'Impossible de joindre le serveur pour le moment. Ta session est conservée.';

function SessionUnavailable() {
  return (
    <div className="guard-message" role="alert" data-testid="session-unavailable">
      <span>{SESSION_UNAVAILABLE_MESSAGE}</span>
      <button type="button" className="btn btn-small" onClick={() => void session.retry()}>
        Réessayer
      </button>
    </div>
  );
}

/** Protected area (docs/product.md §1.2 "Access guards"). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const state = useSession();
  const location = useLocation();
  if (state.status === 'consuming') return <GuardMessage text="Connexion en cours…" />;
  if (!state.key) return <Navigate to={loginUrlFor(location)} replace />;
  if (state.status === 'unavailable') return <SessionUnavailable />;
  if (state.status === 'loading' || !state.user) return <GuardMessage text="Chargement…" />;
  return <>{children}</>;
}

/** Admin area: login first, then the admin check; non-admins go to /dashboard. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const state = useSession();
  const location = useLocation();
  useEffect(() => {
    if (state.status === 'ready' && state.key && state.adminPing === null) void session.checkAdmin();
  }, [state.status, state.key, state.adminPing]);
  if (state.status === 'consuming') return <GuardMessage text="Connexion en cours…" />;
  if (!state.key) return <Navigate to={loginUrlFor(location)} replace />;
  if (state.status === 'unavailable') return <SessionUnavailable />;
  if (state.status === 'loading' || !state.user) return <GuardMessage text="Vérification des droits…" />;
  if (state.isAdmin) return <>{children}</>;
  if (state.adminPing === null) return <GuardMessage text="Vérification des droits…" />;
  return <Navigate to="/dashboard" replace />;
}
