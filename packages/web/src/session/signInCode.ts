/**
 * The return of a third-party sign-in (docs/web.md "Session", docs/security.md "Google sign-in"):
 * the server sends the browser to `/login?provider=google&code=…`, a one-time code that only this
 * browser can exchange for the key (its `bt_oidc` cookie). The code is taken out of the address
 * before anything is shown, so it reaches no history entry, Referer or screenshot, and redeemed.
 */

export interface SignInCodeCapture {
  /** The provider and its code, or null when the address is no sign-in return with a code. */
  readonly code: { readonly provider: string; readonly value: string } | null;
  /** The search string without `code` ('' or '?a=b'). */
  readonly search: string;
  /** True when the address must be rewritten (a `code` was present on the return page, even blank). */
  readonly changed: boolean;
}

export function captureSignInCode(pathname: string, search: string): SignInCodeCapture {
  const params = new URLSearchParams(search);
  const provider = params.get('provider') ?? '';
  if (pathname.replace(/\/+$/, '') !== '/login' || !params.has('code') || !/^[a-z][a-z0-9_-]{0,31}$/.test(provider)) {
    return { code: null, search, changed: false };
  }
  const value = (params.get('code') ?? '').trim();
  params.delete('code');
  const rest = params.toString();
  return { code: value ? { provider, value } : null, search: rest ? `?${rest}` : '', changed: true };
}
