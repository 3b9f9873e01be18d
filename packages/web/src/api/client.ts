/**
 * The shared call client (docs/product.md §1.7, §1.8) as plain logic: fetch, clock, page location, redirect and
 * key are injected, so node:test drives it without a browser.
 */
import { authRedirectTarget } from './authRedirect.js';
import { RequestDeduper } from './dedupe.js';
import { HttpError, errorDetail, withoutTransportErrors } from './errors.js';
import { resolveApiUrl, withQuery, type PageLocation, type QueryValue } from './url.js';

export type ResponseKind = 'json' | 'blob' | 'arrayBuffer' | 'text';

/** What a JSON-expecting call gets when the answer is not JSON (docs/product.md §1.7). */
export interface NonJsonAnswer {
  readonly nonJson: true;
  readonly text: string;
}

export function isNonJsonAnswer(value: unknown): value is NonJsonAnswer {
  return !!value && typeof value === 'object' && (value as { nonJson?: unknown }).nonJson === true;
}

/** The spec's words for an answer that is not JSON (docs/product.md §2.8, the backtest's). */
export const NON_JSON_MESSAGE = 'Erreur serveur (réponse non-JSON)';

export class NonJsonAnswerError extends Error {
  constructor(readonly text: string) {
    super(NON_JSON_MESSAGE);
    this.name = 'NonJsonAnswerError';
  }
}

/**
 * For the calls whose answer is shown as the user's data (their runs, strategies, files, the
 * library): a body that is not JSON (a proxy's error page, or the web app's own index.html served
 * for a wrong API address) is a failed load, never an empty list. Read as data, it made the
 * dashboard say 'Aucun backtest pour l'instant.' to a user whose paid runs were all there.
 */
export function requireJson<T>(answer: T): T {
  if (isNonJsonAnswer(answer)) throw new NonJsonAnswerError(answer.text);
  return answer;
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData, Blob, URLSearchParams and strings go as they are. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Send the key in X-API-Key (default true). false marks a call "without auth". */
  auth?: boolean;
  /** Also send the key as `Authorization: Bearer`. */
  bearer?: boolean;
  /** Also send the key as this query parameter (download links). */
  keyQuery?: 'token' | 'apiKey';
  /**
   * A GET the server charges credits for (a library month, an extraction): sent and settled as a
   * write, never shared, so the balance or list read right after it is read again
   * (docs/web.md, "GET de-duplication").
   */
  spends?: boolean;
  /** How to read the answer (default json). */
  as?: ResponseKind;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Apply the 401/403 login redirect (default true on authenticated calls). */
  redirectOnAuthError?: boolean;
  /**
   * 'include': send the API's cookies even when it is on another origin. Only the redeem of a
   * third-party sign-in's code needs one (its `bt_oidc` binding); no call ever sends a key in one.
   */
  credentials?: RequestCredentials;
}

export interface ClientDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  now: () => number;
  location: () => PageLocation;
  redirect: (url: string) => void;
  getKey: () => string | null;
  /** Normalised API host ('' = same origin). */
  apiHost: string;
  dedupeWindowMs?: number;
}

export const GET_DEDUPE_WINDOW_MS = 250;

export interface ApiClient {
  call<T = unknown>(path: string, options?: CallOptions): Promise<T>;
  get<T = unknown>(path: string, options?: Omit<CallOptions, 'method' | 'body'>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: Omit<CallOptions, 'method' | 'body'>): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: Omit<CallOptions, 'method' | 'body'>): Promise<T>;
  del<T = unknown>(path: string, options?: Omit<CallOptions, 'method' | 'body'>): Promise<T>;
  /** The absolute or same-origin URL of a call (links, redirects, downloads). */
  url(path: string, query?: Record<string, QueryValue>): string;
}

function isPassThroughBody(body: unknown): boolean {
  return (
    typeof body === 'string' ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { nonJson: true, text } satisfies NonJsonAnswer;
  }
}

async function readAnswer(response: Response, kind: ResponseKind): Promise<unknown> {
  switch (kind) {
    case 'blob':
      return response.blob();
    case 'arrayBuffer':
      return response.arrayBuffer();
    case 'text':
      return response.text();
    case 'json':
      return parseJsonText(await response.text());
  }
}

export function createApiClient(deps: ClientDeps): ApiClient {
  const deduper = new RequestDeduper(deps.dedupeWindowMs ?? GET_DEDUPE_WINDOW_MS, deps.now);

  const url = (path: string, query?: Record<string, QueryValue>) =>
    withQuery(resolveApiUrl(path, deps.apiHost, deps.location()), query);

  async function send(path: string, options: CallOptions): Promise<unknown> {
    const method = options.method ?? 'GET';
    const auth = options.auth !== false;
    const key = auth ? deps.getKey() : null;
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (key) {
      headers['X-API-Key'] = key;
      if (options.bearer) headers.Authorization = `Bearer ${key}`;
    }
    let body: BodyInit | undefined;
    if (options.body !== undefined && options.body !== null) {
      if (isPassThroughBody(options.body)) body = options.body as BodyInit;
      else {
        body = JSON.stringify(options.body);
        headers['Content-Type'] = 'application/json';
      }
    }
    const query = { ...options.query };
    if (key && options.keyQuery) query[options.keyQuery] = key;
    const target = url(path, query);

    const response = await withoutTransportErrors(() => deps.fetch(target, { method, headers, body, signal: options.signal, ...(options.credentials ? { credentials: options.credentials } : {}) }));
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const parsed = text ? parseJsonText(text) : undefined;
      const detail = isNonJsonAnswer(parsed) ? undefined : errorDetail(parsed);
      if (auth && options.redirectOnAuthError !== false) {
        const redirectTo = authRedirectTarget(response.status, path, deps.location());
        if (redirectTo) deps.redirect(redirectTo);
      }
      throw new HttpError(response.status, detail, parsed, response.statusText, response.headers?.get?.('Retry-After') ?? null);
    }
    // The body can fail too (a connection cut mid-download): the same French message.
    return withoutTransportErrors(() => readAnswer(response, options.as ?? 'json'));
  }

  function call<T>(path: string, options: CallOptions = {}): Promise<T> {
    const method = options.method ?? 'GET';
    if (method !== 'GET' || options.body !== undefined || options.spends) {
      deduper.forget();
      const written = send(path, options);
      const forget = () => deduper.forget();
      written.then(forget, forget);
      return written as Promise<T>;
    }
    const key = options.auth === false ? '' : (deps.getKey() ?? '');
    // The headers too: a profile read with a given key (calls.me) sends it in its own header, and two
    // keys read at once (session/store.ts, a key in the address) must not share one answer.
    const dedupeKey = JSON.stringify([url(path, options.query), key, options.keyQuery ?? '', options.bearer ?? false, options.as ?? 'json', options.headers ?? {}]);
    return deduper.run(dedupeKey, () => send(path, options)) as Promise<T>;
  }

  return {
    call,
    get: (path, options) => call(path, { ...options, method: 'GET' }),
    post: (path, body, options) => call(path, { ...options, method: 'POST', body }),
    patch: (path, body, options) => call(path, { ...options, method: 'PATCH', body }),
    del: (path, options) => call(path, { ...options, method: 'DELETE' }),
    url,
  };
}
