/** Errors of the shared client (docs/product.md §1.8): 'HTTP {status}' then ' — ' and the body's detail. */

export class HttpError extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly body: unknown;
  /** The answer's reason phrase ('Not Found'), '' when unknown: the admin console shows '{status} {statusText}'. */
  readonly statusText: string;
  /** The answer's Retry-After header (429, 503), null when absent. */
  readonly retryAfter: string | null;

  constructor(status: number, detail: string | undefined, body: unknown, statusText = '', retryAfter: string | null = null) {
    super(formatHttpError(status, detail));
    this.name = 'HttpError';
    this.status = status;
    this.detail = detail;
    this.body = body;
    this.statusText = statusText;
    this.retryAfter = retryAfter;
  }
}

/**
 * Milliseconds a Retry-After value asks to wait: seconds ('5') or an HTTP date; null when absent
 * or unreadable. `now` is injected for the date form.
 */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

export function formatHttpError(status: number, detail: string | undefined): string {
  return detail ? `HTTP ${status} — ${detail}` : `HTTP ${status}`;
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (Array.isArray(value)) {
    // Validation lists ({msg} items, as some servers send) read best joined.
    const parts = value.map((item) => (item && typeof item === 'object' && 'msg' in item ? String((item as { msg: unknown }).msg) : asText(item))).filter(Boolean);
    return parts.length ? parts.join('; ') : undefined;
  }
  return undefined;
}

/** The detail, message or error field of a JSON body, in that order. */
export function errorDetail(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  return asText(record.detail) ?? asText(record.message) ?? asText(record.error);
}

/**
 * What a user reads when a request got no answer at all (offline, DNS, connection reset, a proxy
 * cutting the body): the product's own words (docs/product.md §1.8, the reset page's 'Erreur réseau.'), not
 * the browser's English 'Failed to fetch' / 'NetworkError when attempting to fetch resource.' /
 * 'Load failed', which the pages would otherwise show as it is.
 */
export const NETWORK_ERROR_MESSAGE = 'Erreur réseau.';

/** A request that got no answer. Still a TypeError, as fetch's own failure is, for the pages that test for one. */
export class NetworkError extends TypeError {
  constructor(cause?: unknown) {
    super(NETWORK_ERROR_MESSAGE, { cause });
    this.name = 'NetworkError';
  }
}

/** An abort is the caller's own decision (a timeout, a page left): it keeps its name and is never a network error. */
export function isAbortError(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as { name?: unknown }).name === 'AbortError';
}

/** Runs a fetch (or the reading of its body) and turns a transport failure into a NetworkError. */
export async function withoutTransportErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isAbortError(error) || error instanceof HttpError || error instanceof NetworkError) throw error;
    throw new NetworkError(error);
  }
}

/** The message to show for any thrown value. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
