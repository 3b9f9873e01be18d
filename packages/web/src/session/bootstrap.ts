/**
 * Runs once before the first render: a key in the address is taken out of it (history replaced,
 * nothing else touched) and handed to the session (docs/product.md §1.4), with whether it comes
 * back from a sign-in started in this tab (session/addressKey.ts, docs/security.md "Sessions").
 */
import { session, tabStorage } from '../runtime.js';
import { takeOwnSignIn } from './addressKey.js';
import { captureUrlKey } from './urlKey.js';

export function bootstrapSession(): void {
  const { pathname, search, hash } = window.location;
  const ownSignIn = takeOwnSignIn(tabStorage, Date.now(), pathname, search);
  const captured = captureUrlKey(search);
  if (captured.changed) {
    window.history.replaceState(window.history.state, '', `${pathname}${captured.search}${hash}`);
  }
  void session.start(captured.key, ownSignIn);
}
