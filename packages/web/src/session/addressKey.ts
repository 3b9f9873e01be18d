/**
 * What a key in the address may do to the session (docs/security.md "Sessions", the key in the
 * address; docs/web.md "Session"). The spec takes it on any page, so a link carrying someone's own
 * key signs its reader into that account (a login CSRF, or fixation). Narrowed here: it never
 * silently replaces a live session of another account, and a sign-in by a link is said on screen.
 *
 * The exception is the return of a sign-in the visitor started in this tab (the Google button):
 * the button leaves a marker in the tab's sessionStorage, which the return takes and removes.
 */
import type { KeyValueStorage } from './keyStorage.js';
import type { UserProfile } from './types.js';

/**
 * take: store the address key and sign in with it; ask: another key is stored, ask the visitor
 * before switching (if that session is live); ignore: nothing to do with the address.
 */
export type AddressKeyAction = 'take' | 'ask' | 'ignore';

export interface AddressKeyDecision {
  readonly action: AddressKeyAction;
  /** A sign-in by a link: no session before and no sign-in of the visitor's own; it is shown. */
  readonly byLink: boolean;
}

export function decideAddressKey(stored: string | null, address: string | null, ownSignIn: boolean): AddressKeyDecision {
  if (!address || address === stored) return { action: 'ignore', byLink: false };
  if (ownSignIn) return { action: 'take', byLink: false };
  if (!stored) return { action: 'take', byLink: true };
  return { action: 'ask', byLink: false };
}

/** sessionStorage entry set when the visitor starts a third-party sign-in in this tab. */
export const OWN_SIGN_IN_MARKER = 'btOwnSignIn';
/** As long as the server keeps the sign-in's state (docs/server.md, Google sign-in: 10 minutes). */
export const OWN_SIGN_IN_TTL_MS = 10 * 60 * 1000;

/** Called by the buttons that leave for a third-party sign-in (LoginPage, the profile's reauth). */
export function markOwnSignIn(tabStorage: KeyValueStorage, now: number): void {
  tabStorage.setItem(OWN_SIGN_IN_MARKER, String(now));
}

/**
 * Whether the marker is recent (set within the TTL, not in the future); pure. A marker counts
 * only on a provider's return (`/login?provider=…`), where the server hands the key over.
 */
export function ownSignInReturn(marker: string | null, now: number, pathname: string, search: string): boolean {
  if (!marker || !/^\d+$/.test(marker)) return false;
  const age = now - Number(marker);
  if (age < 0 || age > OWN_SIGN_IN_TTL_MS) return false;
  return pathname.replace(/\/+$/, '') === '/login' && new URLSearchParams(search).has('provider');
}

/**
 * Reads and removes the marker (any page load ends it: a marker left by an abandoned sign-in
 * must not vouch for a later link).
 */
export function takeOwnSignIn(tabStorage: KeyValueStorage, now: number, pathname: string, search: string): boolean {
  const marker = tabStorage.getItem(OWN_SIGN_IN_MARKER);
  if (marker !== null) tabStorage.removeItem(OWN_SIGN_IN_MARKER);
  return ownSignInReturn(marker, now, pathname, search);
}

/** The account's id, to tell two keys of one account from two accounts. */
function accountId(user: UserProfile | null | undefined): string | null {
  const id = user?.id ?? user?.user_id;
  return id === undefined || id === null || id === '' ? null : String(id);
}

export function sameAccount(a: UserProfile | null | undefined, b: UserProfile | null | undefined): boolean {
  const left = accountId(a);
  return left !== null && left === accountId(b);
}

/** How the account is named to the visitor: its username, else its e-mail, else its name. */
export function accountLabel(user: UserProfile | null | undefined): string | null {
  for (const value of [user?.username, user?.email, user?.mail, user?.name, user?.full_name]) {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}
