/**
 * Authenticated file downloads that keep the server's file name (docs/product.md §3.7: the archive's
 * name comes from the Content-Disposition header). The shared client reads bodies only, so this
 * fetches itself, with the same key header and the same '{status} {statusText}' errors.
 */
import { HttpError, errorDetail, withoutTransportErrors } from './errors.js';
import { parseJsonText } from './client.js';
import { withQuery, type QueryValue } from './url.js';

export interface DownloadedFile {
  blob: Blob;
  /** The server's name, else the fallback. */
  name: string;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first), or null. */
export function dispositionName(header: string | null | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      const name = decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
      if (name) return baseName(name);
    } catch {
      // A broken escape: fall back to the plain name.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted) return baseName(quoted[1].replace(/\\(.)/g, '$1')) || null;
  const plain = /filename\s*=\s*([^;\s]+)/.exec(header);
  return plain ? baseName(plain[1]) || null : null;
}

/** Never a path: a name with folders keeps its last part. */
function baseName(name: string): string {
  return name.split(/[\\/]/).pop()!.trim();
}

export interface FileFetchDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** The absolute or same-origin URL of an API path (ApiClient.url). */
  url: (path: string, query?: Record<string, QueryValue>) => string;
  getKey: () => string | null;
}

export function makeFileFetcher(deps: FileFetchDeps) {
  return async function fetchFile(path: string, query: Record<string, QueryValue>, fallbackName: string): Promise<DownloadedFile> {
    const key = deps.getKey();
    const response = await withoutTransportErrors(() => deps.fetch(withQuery(deps.url(path), query), { headers: key ? { 'X-API-Key': key } : {} }));
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const parsed = text ? parseJsonText(text) : undefined;
      throw new HttpError(response.status, errorDetail(parsed), parsed, response.statusText);
    }
    const blob = await withoutTransportErrors(() => response.blob());
    return { blob, name: dispositionName(response.headers.get('Content-Disposition')) ?? fallbackName };
  };
}

export type FileFetcher = ReturnType<typeof makeFileFetcher>;
