/**
 * The `next` parameter (docs/product.md §1.5): a path on this site, starting with a single '/', never an
 * absolute http(s) URL; anything else falls back to /home. Protocol-relative ('//evil') and
 * backslash tricks ('/\\evil') are refused too, since browsers read them as another host. A sign-in,
 * sign-up or password page (/login, /auth, /register, /forgot-password, /reset-password/…) falls
 * back to /home as well: signing in must not land on the login page again.
 */
export const DEFAULT_NEXT = '/home';

export function safeNext(raw: string | null | undefined): string {
  if (typeof raw !== 'string') return DEFAULT_NEXT;
  const value = raw.trim();
  if (value === '' || !value.startsWith('/')) return DEFAULT_NEXT;
  if (/^https?:/i.test(value)) return DEFAULT_NEXT;
  if (value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_NEXT;
  // Control characters can smuggle a scheme past the checks above in some browsers.
  if (/[\u0000-\u001f\u007f]/.test(value)) return DEFAULT_NEXT;
  // Back to a sign-in or password page once signed in is a loop (the login page again): /home.
  if (isAuthPage(value)) return DEFAULT_NEXT;
  return value;
}

/** First path segments of the pages a signed-in user has no reason to land on (/auth leads to /login). */
const AUTH_SEGMENTS: ReadonlySet<string> = new Set(['login', 'auth', 'register', 'signup', 'forgot-password', 'reset-password', 'resetpassword']);

/** Whether a site path names a sign-in, sign-up or password page, however it is spelt ('/Login/', '/./login', '/%6Cogin'). */
export function isAuthPage(path: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(path, 'http://bt.invalid').pathname;
  } catch {
    return false;
  }
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape stays as it is.
  }
  const first = decoded.split('/').find((segment) => segment !== '') ?? '';
  return AUTH_SEGMENTS.has(first.toLowerCase());
}
