/**
 * Runs once before the first render: a key in the address is taken out of it (history replaced,
 * nothing else touched) and the session starts with it (docs/product.md §1.4).
 */
import { session } from '../runtime.js';
import { captureUrlKey } from './urlKey.js';

export function bootstrapSession(): void {
  const { key, search, changed } = captureUrlKey(window.location.search);
  if (changed) {
    const url = `${window.location.pathname}${search}${window.location.hash}`;
    window.history.replaceState(window.history.state, '', url);
  }
  void session.start(key);
}
