/**
 * Runs once before the first render: a key or a sign-in code in the address is taken out of it
 * (history replaced, nothing else touched) and handed to the session (docs/product.md §1.4,
 * docs/security.md "Sessions" and "Google sign-in"). A sign-in's code is redeemed for its key;
 * a key from a link is weighed against the stored session (session/addressKey.ts).
 */
import { calls, session } from '../runtime.js';
import { captureSignInCode } from './signInCode.js';
import { captureUrlKey } from './urlKey.js';

export function bootstrapSession(): void {
  const { pathname, search, hash } = window.location;
  const returned = captureSignInCode(pathname, search);
  const captured = captureUrlKey(returned.search);
  if (returned.changed || captured.changed) {
    window.history.replaceState(window.history.state, '', `${pathname}${captured.search}${hash}`);
  }
  // A code and a key at once is no return of ours: the code, which only this browser can redeem, wins.
  if (returned.code) {
    const { provider, value } = returned.code;
    void session.redeemSignIn(() => calls.redeemSignIn(provider, value));
  } else {
    void session.start(captured.key);
  }
}
