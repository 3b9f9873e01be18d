/**
 * Where API calls go (docs/product.md §1.7): paths under /api/ go to the configured API host, except on
 * localhost where they stay on the page's origin (the dev server proxies them, or the bt server
 * serves the app itself).
 */

export interface PageLocation {
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0']);

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname) || hostname.endsWith('.localhost');
}

/** Normalises the configured host: trims, drops trailing slashes; '' means same origin. */
export function normalizeApiHost(host: string | null | undefined): string {
  const trimmed = (host ?? '').trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^https?:\/\//i.test(trimmed)) throw new Error(`invalid apiHost: ${host} (expected http(s)://host)`);
  return trimmed;
}

export type QueryValue = string | number | boolean | null | undefined;

export function withQuery(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(name, String(value));
  }
  const text = params.toString();
  if (text === '') return path;
  return path + (path.includes('?') ? '&' : '?') + text;
}

/** The URL a call to `path` uses. Paths without a leading slash (`api/...`) are treated as /api/... too. */
export function resolveApiUrl(path: string, apiHost: string, location: Pick<PageLocation, 'hostname'>): string {
  if (/^https?:\/\//i.test(path)) return path;
  const absolute = path.startsWith('/') ? path : `/${path}`;
  if (!absolute.startsWith('/api/')) return absolute;
  if (apiHost === '' || isLocalHost(location.hostname)) return absolute;
  return apiHost + absolute;
}
