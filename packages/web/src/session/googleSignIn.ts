/**
 * Leaves for the Google sign-in. Its return carries a one-time code that only this browser can
 * redeem (session/signInCode.ts): no marker is needed to tell it from a link.
 */
import { calls } from '../runtime.js';

export function leaveForGoogleSignIn(next: string): void {
  window.location.assign(calls.googleSignInUrl(next));
}
