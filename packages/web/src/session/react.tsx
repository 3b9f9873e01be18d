import { useEffect, useSyncExternalStore } from 'react';
import { analytics, session, storage } from '../runtime.js';
import { isKeyStorageEvent } from './keyStorage.js';
import type { SessionState } from './store.js';

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}

/** Follows key changes made in other tabs, and identifies the user to analytics once known. */
export function useSessionSync(): void {
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea && event.storageArea !== storage) return;
      if (isKeyStorageEvent(event.key)) session.syncFromStorage();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const state = useSession();
  useEffect(() => {
    if (state.status === 'ready' && state.user) analytics.identify(state.user);
  }, [state.status, state.user]);

  // A kept key whose profile could not be read: asked again as soon as the browser is back online.
  useEffect(() => {
    if (state.status !== 'unavailable') return;
    const onOnline = () => void session.retry();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [state.status]);

  // One admin ping per key, once the key is known good.
  useEffect(() => {
    if (state.status === 'ready' && state.key && state.adminPing === null) void session.checkAdmin();
  }, [state.status, state.key, state.adminPing]);
}
