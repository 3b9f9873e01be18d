import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { isForbidden } from './messages.js';

export interface Loaded<T> {
  data: T | null;
  /** The error of the last load, or null. */
  error: unknown;
  loading: boolean;
  /** True once a call answered 403: the tab shows 'Accès administrateur requis.' */
  forbidden: boolean;
  reload: () => void;
}

/** Loads once per change of `deps`, and again on reload(); a stale answer never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    setLoading(true);
    load().then(
      (value) => {
        if (mine !== seq.current) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== seq.current) return;
        setError(failure);
        setLoading(false);
      },
    );
    // The caller lists what the load depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, forbidden: isForbidden(error), reload };
}
