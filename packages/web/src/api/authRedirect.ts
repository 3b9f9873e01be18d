import type { PageLocation } from './url.js';

/**
 * Which failed calls send the browser to the login page (docs/product.md §1.8): a 401 on an authenticated
 * call, and a 403 on an authenticated call outside /api/admin/ (an admin probe refused is an
 * answer, not a session problem). Never when already on /login.
 */
export function authRedirectTarget(status: number, apiPath: string, location: PageLocation): string | null {
  if (status !== 401 && status !== 403) return null;
  if (status === 403 && isAdminApiPath(apiPath)) return null;
  if (location.pathname === '/login' || location.pathname.startsWith('/login/')) return null;
  return loginUrlFor(location);
}

export function isAdminApiPath(apiPath: string): boolean {
  const path = apiPath.replace(/^https?:\/\/[^/]+/i, '');
  return /^\/?api\/admin(\/|$|\?)/.test(path);
}

/** /login?next={current path, query and hash} (docs/product.md §1.5). */
export function loginUrlFor(location: Pick<PageLocation, 'pathname' | 'search' | 'hash'>): string {
  const current = `${location.pathname}${location.search}${location.hash}`;
  return `/login?next=${encodeURIComponent(current)}`;
}
