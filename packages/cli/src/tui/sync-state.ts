// State that keyboard handlers can read at once: several keys can arrive in one chunk (a paste,
// a fast typist, tmux send-keys), and each must see what the previous one did, before React
// renders again.
import { useRef, useState } from 'react';

export function useSyncState<T>(initial: T | (() => T)): [T, (next: T | ((old: T) => T)) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const ref = useRef(value);
  const set = (next: T | ((old: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (old: T) => T)(ref.current) : next;
    setValue(ref.current);
  };
  return [value, set, ref];
}
