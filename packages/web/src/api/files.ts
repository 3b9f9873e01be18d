/**
 * Authenticated file downloads that keep the server's file name (docs/product.md §3.7: the archive's
 * name comes from the Content-Disposition header). The shared client reads bodies only, so this
 * fetches itself, with the same key header and the same '{status} {statusText}' errors.
 */
import { HttpError, NetworkError, errorDetail, withoutTransportErrors } from './errors.js';
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

/**
 * One download with the key in `X-API-Key`: a refusal is an HttpError, no answer a NetworkError;
 * `filesOnly` also refuses a 200 that is JSON or HTML (NotAFileError).
 */
async function download(deps: Pick<FileFetchDeps, 'fetch' | 'getKey'>, url: string, fallbackName: string, filesOnly: boolean): Promise<DownloadedFile> {
  const key = deps.getKey();
  const response = await withoutTransportErrors(() => deps.fetch(url, { headers: key ? { 'X-API-Key': key } : {} }));
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    const parsed = text ? parseJsonText(text) : undefined;
    throw new HttpError(response.status, errorDetail(parsed), parsed, response.statusText);
  }
  if (filesOnly) {
    const type = response.headers.get('Content-Type')?.toLowerCase() ?? '';
    if (type.startsWith('application/json') || type.startsWith('text/html')) throw new NotAFileError(type);
  }
  const blob = await withoutTransportErrors(() => response.blob());
  return { blob, name: dispositionName(response.headers.get('Content-Disposition')) ?? fallbackName };
}

export function makeFileFetcher(deps: FileFetchDeps) {
  return (path: string, query: Record<string, QueryValue>, fallbackName: string): Promise<DownloadedFile> =>
    download(deps, withQuery(deps.url(path), query), fallbackName, false);
}

export type FileFetcher = ReturnType<typeof makeFileFetcher>;

/**
 * A download link's file fetched by the page (the workbook's `/api/download/{file}?folder&apiKey`,
 * the spec's address, unchanged), with the key in `X-API-Key` as well. A plain link saved whatever
 * came back: a refusal or a missing workbook became a JSON body in a file named `.xlsx`. Here a
 * refusal, no answer, or a 200 that is JSON or HTML (an error page, not a file) rejects, and the
 * page says so in French.
 */
export function makeLinkedFileFetcher(deps: { fetch: (url: string, init: RequestInit) => Promise<Response>; getKey: () => string | null }) {
  return (href: string, fallbackName: string): Promise<DownloadedFile> => download(deps, href, fallbackName, true);
}

export type LinkedFileFetcher = ReturnType<typeof makeLinkedFileFetcher>;

/** A 200 whose body is a page or JSON, not the file asked for. */
export class NotAFileError extends Error {
  constructor(readonly contentType: string) {
    super('Téléchargement impossible.');
    this.name = 'NotAFileError';
  }
}

/** The product's 'Téléchargement impossible.' (docs/product.md §2.8), then why when it is known. */
export const DOWNLOAD_FAILED_MESSAGE = 'Téléchargement impossible.';

export function downloadFailureMessage(error: unknown): string {
  if (error instanceof NetworkError) return `${DOWNLOAD_FAILED_MESSAGE} ${error.message}`;
  if (error instanceof HttpError && error.detail) return `${DOWNLOAD_FAILED_MESSAGE} ${error.detail}`;
  return DOWNLOAD_FAILED_MESSAGE;
}
