/**
 * Leaves for the Google sign-in, marking this tab first: its return hands a key over in the address,
 * and a return the visitor started here is taken without asking (session/addressKey.ts).
 */
import { calls, tabStorage } from '../runtime.js';
import { markOwnSignIn } from './addressKey.js';

export function leaveForGoogleSignIn(next: string): void {
  markOwnSignIn(tabStorage, Date.now());
  window.location.assign(calls.googleSignInUrl(next));
}
