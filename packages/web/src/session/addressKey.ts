/**
 * What a key in the address may do to the session (docs/security.md "Sessions", the key in the
 * address; docs/web.md "Session"). The spec takes it on any page, so a link carrying someone's own
 * key signs its reader into that account (a login CSRF, or fixation). Narrowed here: it never
 * silently replaces a live session of another account, and a sign-in by a link is said on screen.
 *
 * The Google sign-in's return carries no key any more but a one-time code, redeemed by this
 * browser only (session/signInCode.ts): a key in the address is always a link's.
 */
import type { UserProfile } from './types.js';

/**
 * take: store the address key and sign in with it; ask: another key is stored, ask the visitor
 * before switching (if that session is live); ignore: nothing to do with the address.
 */
export type AddressKeyAction = 'take' | 'ask' | 'ignore';

export interface AddressKeyDecision {
  readonly action: AddressKeyAction;
  /** A sign-in by a link: no session before; it is shown. */
  readonly byLink: boolean;
}

export function decideAddressKey(stored: string | null, address: string | null): AddressKeyDecision {
  if (!address || address === stored) return { action: 'ignore', byLink: false };
  if (!stored) return { action: 'take', byLink: true };
  return { action: 'ask', byLink: false };
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
