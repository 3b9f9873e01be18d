/**
 * The calls this part of the app makes (docs/product.md §1.7, docs/product.md §2.7), one function each, over the shared
 * client. Answers are typed loosely: servers add fields, the pages read what they need.
 */
import { NonJsonAnswerError, requireJson, type ApiClient } from './client.js';

/**
 * `GET /api/me` is the user only when it is a JSON object. A 200 that is not (a proxy's page, the
 * app's index.html for a wrong API address) is a failed profile fetch: taken as the user, it
 * showed a session with no name and '— crédits' (docs/web.md "Session": a stored key is kept
 * through it, as through a 5xx).
 */
function requireUser(answer: unknown): Record<string, unknown> {
  const user = requireJson(answer);
  if (!user || typeof user !== 'object' || Array.isArray(user)) throw new NonJsonAnswerError(String(JSON.stringify(user) ?? ''));
  return user as Record<string, unknown>;
}

export interface LoginAnswer {
  token?: string;
  apiKey?: string;
  api_key?: string;
  message?: string;
  status?: string;
  detail?: string;
}

export interface RegisterPayload {
  first_name: string;
  last_name: string;
  email: string;
  username: string;
  password: string;
}

export interface RegisterAnswer {
  status?: string;
  token?: string;
  apiKey?: string;
  message?: string;
  detail?: string;
  verifyUrl?: string;
}

export interface ResendAnswer {
  status?: string;
  emailed?: boolean;
  verifyUrl?: string;
  message?: string;
}

export interface SupportPayload {
  type: 'contact' | 'feedback';
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  meta: { path: string; ts: number };
}

export interface SheetMetaAnswer {
  sheets?: unknown;
  columns?: unknown;
  [field: string]: unknown;
}

export interface SheetAnswer {
  headers?: unknown;
  rows?: unknown;
  [field: string]: unknown;
}

/** The key a login or registration answer carries, whatever the server calls it. */
export function answerKey(answer: { token?: unknown; apiKey?: unknown; api_key?: unknown } | null | undefined): string | null {
  for (const value of [answer?.token, answer?.apiKey, answer?.api_key]) {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

export function makeCalls(api: ApiClient) {
  const keyHeader = (key: string) => ({ 'X-API-Key': key });
  return {
    login: (identifier: string, password: string) => api.post<LoginAnswer>('/api/login', { identifier, password }, { auth: false }),
    register: (payload: RegisterPayload) => api.post<RegisterAnswer>('/api/register', payload, { auth: false }),
    /** The profile of a given key; no login redirect: a refused key is simply forgotten (docs/product.md §1.8). */
    me: (key: string) => api.get<unknown>('/api/me', { auth: false, headers: keyHeader(key) }).then(requireUser),
    /** Ends a session on the server; its failure changes nothing for the user (the key is forgotten anyway). */
    logout: (key: string) => api.post('/api/logout', undefined, { auth: false, headers: keyHeader(key) }),
    /** Admin probe: its refusal is an answer, never a redirect. */
    adminPing: (key: string) => api.get('/api/admin/ping', { auth: false, headers: keyHeader(key) }),
    resendVerification: () => api.post<ResendAnswer>('/api/auth/resend-verification', undefined, { redirectOnAuthError: false }),
    generateResetToken: (email: string) => api.post('/api/auth/generate-reset-token', { email }, { auth: false }),
    resetPassword: (token: string, newPassword: string) =>
      api.post<{ status?: string; message?: string; detail?: string }>(`/api/auth/reset-password/${encodeURIComponent(token)}`, { new_password: newPassword }, { auth: false }),
    topStrategies: (signal?: AbortSignal) => api.get<unknown>('/api/top-strategy', { auth: false, signal }),
    publicSheetMeta: (folder: string) => api.get<SheetMetaAnswer>('/api/public/xlsx/meta', { auth: false, query: { folder } }),
    publicSheet: (folder: string, sheet: string) => api.get<SheetAnswer>('/api/public/xlsx/sheet', { auth: false, query: { folder, sheet } }),
    userSheetMeta: (folder: string) => api.get<SheetMetaAnswer>('/api/user/backtests/xlsx/meta', { query: { folder } }),
    userSheet: (folder: string, sheet: string, offset = 0, limit = 500) =>
      api.get<SheetAnswer>('/api/user/backtests/xlsx/sheet', { query: { folder, sheet, offset, limit, use_header: true } }),
    support: (payload: SupportPayload) => api.post('/api/support', payload, { auth: false }),
    listStrategies: () => api.get<unknown>('/api/list_strategies', { auth: false }),
    strategyParams: (strategy: string) => api.get<{ params?: unknown }>(`/api/strategy_params/${encodeURIComponent(strategy)}`),
    runBacktest: (body: Record<string, unknown>) => api.post<Record<string, unknown>>('/api/run_backtest', body),
    uploadCsvAndBacktest: (form: FormData) => api.post<Record<string, unknown>>('/api/upload_csv_and_backtest', form),
    userStrategies: () => api.get<unknown>('/api/user/strategies').then(requireJson),
    /** Which generator answers: a chat model ('openai') or the built-in prompt parser ('builtin'). */
    generatorProvider: () => api.get<{ provider?: unknown }>('/api/gpt/provider', { auth: false }),
    generateStrategy: (prompt: string, slMode: 'internal' | 'external') =>
      api.post<Record<string, unknown>>('/api/gpt/generate-strategy', { prompt, sl_mode: slMode }, { redirectOnAuthError: false }),
    importStrategy: (form: FormData) => api.post<Record<string, unknown>>('/api/user/strategies/import', form),
    downloadStrategy: (id: string) => api.get<Blob>(`/api/user/strategies/${encodeURIComponent(id)}/download`, { as: 'blob' }),
    /** GET /api/download/{file}?folder&apiKey: a plain link, so the browser streams the workbook. */
    downloadUrl: (file: string, folder: string, key: string | null) =>
      api.url(`/api/download/${encodeURIComponent(file)}`, { folder, apiKey: key ?? undefined }),
    /** The third-party sign-in start endpoint on the API host (a browser redirect, docs/product.md §1.7). */
    googleSignInUrl: (next: string) => api.url('/api/auth/google/login', { next }),
    /**
     * The one-time code of a third-party sign-in's return, exchanged for the key (answered as a
     * login is), with the flow's cookie: only the browser that started the sign-in can (docs/api.md).
     */
    redeemSignIn: (provider: string, code: string) =>
      api.post<LoginAnswer>(`/api/auth/${encodeURIComponent(provider)}/redeem`, { code }, { auth: false, credentials: 'include', redirectOnAuthError: false }),
    /** The health answer, whose `sign_in` lists the third-party sign-ins this server has (docs/api.md). */
    health: () => api.get<unknown>('/api/health', { auth: false }),
    /** What the official library holds, per symbol and timeframe (public). */
    datasets: () => api.get<unknown>('/api/datasets', { auth: false }).then(requireJson),
    /** The result view's candles and trades of one of the user's runs. */
    resultChart: (folder: string) => api.get<unknown>('/api/user/backtests/chart', { query: { folder } }),
    // Dashboard and pins (docs/product.md §2.7 "User results" and personal strategies).
    /** One page of the user's runs in the dashboard's order (docs/api.md), or the whole list without a page. */
    userBacktests: (page?: { sort: string; limit: number; offset: number }) => api.get<unknown>('/api/user/backtests', { query: page }).then(requireJson),
    /** Failure on a non-OK status (docs/product.md §2.7): the client throws HttpError with the server's detail. */
    deleteBacktest: (folder: string) => api.del<{ status?: string; message?: string }>(`/api/user/backtests/delete/${encodeURIComponent(folder)}`),
    renameStrategy: (id: string, displayName: string) =>
      api.patch<{ strategy?: { id?: string; display_name?: string; display_filename?: string } }>(`/api/user/strategies/${encodeURIComponent(id)}/rename`, { display_name: displayName }),
    strategyNote: (id: string, commentUser: string) =>
      api.patch<{ meta?: Record<string, unknown> }>(`/api/user/strategies/${encodeURIComponent(id)}/note`, { comment_user: commentUser }),
    deleteStrategy: (id: string) => api.del<{ status?: string }>(`/api/user/strategies/${encodeURIComponent(id)}`),
    userCsvs: () => api.get<unknown>('/api/user/csvs').then(requireJson),
    /** GET /api/download_owned_csv_by_path/{path}?token: a free re-download link of an owned CSV. */
    ownedCsvUrl: (path: string, key: string | null) =>
      api.url(`/api/download_owned_csv_by_path/${encodePath(path)}`, { token: key ?? undefined }),
  };
}

export type Calls = ReturnType<typeof makeCalls>;

// --- Comparator, CSV shop and profile (docs/product.md §2.7) -------------------------------------------

/** A library or owned path sent in the URL: each segment encoded, the slashes kept. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export interface CompareDataAnswer {
  metric?: string;
  buckets?: unknown;
  series?: unknown;
  value_type?: string;
  precision?: number;
}

export interface ProfileAnswer {
  status?: string;
  message?: string;
  detail?: string;
  user?: Record<string, unknown>;
  emailed?: boolean;
  verifyUrl?: string;
}

/** Retries a call once on 404 (docs/product.md §2.7: profile update and password change have fallbacks). */
async function on404<T>(first: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
  try {
    return await first();
  } catch (error) {
    if (error instanceof Error && (error as { status?: number }).status === 404) return fallback();
    throw error;
  }
}

export function makeWorkAreaCalls(api: ApiClient) {
  return {
    compareOptions: () => api.get<{ items?: unknown } | unknown[]>('/api/compare/options').then(requireJson),
    compareData: (analysisIds: Array<string | number>, metric: string) =>
      api.post<CompareDataAnswer>('/api/compare/data', { analysis_ids: analysisIds, metric, normalize: false }).then(requireJson),
    /** The whole library, or one instrument's months (the reference page's pair sheet). */
    csvLibrary: (symbol?: string) => api.get<{ files?: unknown } | unknown[]>('/api/list_csv_library', symbol ? { query: { symbol } } : {}).then(requireJson),
    /** A library month: 1 credit the first time, free once owned (the server decides). */
    downloadCsv: (path: string) => api.get<Blob>(`/api/download_csv_by_path/${encodePath(path)}`, { as: 'blob', keyQuery: 'token', spends: true }),
    downloadOwnedCsv: (path: string) => api.get<Blob>(`/api/download_owned_csv_by_path/${encodePath(path)}`, { as: 'blob', keyQuery: 'token' }),
    recentExtractions: (limit = 3) => api.get<{ files?: unknown }>('/api/my_recent_extractions', { query: { limit } }).then(requireJson),
    /** 401 is answered in the panel ('Inscrivez-vous…'), not by the login redirect. */
    extract: (query: { symbol: string; timeframe: string; start_date: string; end_date: string }) =>
      api.get<Record<string, unknown>>('/api/extract_to_output_live', { query, redirectOnAuthError: false, spends: true }),
    profileUpdate: (form: () => FormData) =>
      on404(() => api.post<ProfileAnswer>('/api/profile/update', form()), () => api.post<ProfileAnswer>('/api/profile/update', form())),
    setPassword: (currentPassword: string, newPassword: string) => {
      const body = { current_password: currentPassword, new_password: newPassword };
      return on404(() => api.post<ProfileAnswer>('/api/profile/set-password', body), () => api.post<ProfileAnswer>('/profile/set-password', body));
    },
    unsubscribe: () => api.post<ProfileAnswer>('/api/profile/unsubscribe'),
    /** JSON `{current_password}`, as set-password; `{}` for an account without a password (docs/api.md). */
    deleteAccount: (proof: { current_password?: string }) => api.post<ProfileAnswer>('/api/user/delete_account', proof),
  };
}

export type WorkAreaCalls = ReturnType<typeof makeWorkAreaCalls>;

// --- Payments (docs/api.md "Payments") -------------------------------------------------------

export interface CheckoutAnswer {
  url?: string;
  id?: string;
  approve_url?: string;
  payment_url?: string;
  reference?: string;
  offer_id?: string;
  amount_eur?: number;
  credits?: number;
}

export interface PaymentAnswer {
  status?: string;
  message?: string;
  offer_id?: string;
  method?: string;
  credits?: number;
  credits_added?: number;
  amount_eur?: number;
  invoice?: { number: number; label: string; url: string } | null;
  [field: string]: unknown;
}

/**
 * The buyer's key goes in the header and again as `user_token` (the server checks they are the
 * same); the client never sends a price. Refusals are answered on the page (no login redirect:
 * a visitor gets the connection prompt before any call).
 */
export function makePaymentCalls(api: ApiClient, key: () => string | null) {
  const buy = (path: string, body: Record<string, unknown>) => api.post<CheckoutAnswer>(path, { ...body, user_token: key() ?? undefined }, { redirectOnAuthError: false });
  return {
    methods: () => api.get<unknown>('/api/payment/methods', { auth: false }),
    stripeSession: (offerId: string) => buy('/api/payment/stripe/session', { offer_id: offerId }),
    paypalCreateOrder: (offerId: string) => buy('/api/payment/paypal/create-order', { offer_id: offerId }),
    paypalCaptureOrder: (orderId: string, offerId: string | null) =>
      api.post<PaymentAnswer>('/api/payment/paypal/capture-order', { orderID: orderId, offer_id: offerId ?? undefined, user_token: key() ?? undefined }, { redirectOnAuthError: false }),
    cryptoCreateOrder: (offerId: string, currency = 'usdttrc20') => buy('/api/payment/crypto/create-order', { offer_id: offerId, currency }),
    /** The payment behind a return link (Stripe session, PayPal order, our crypto reference). */
    status: (payment: string, reference: string) => api.get<PaymentAnswer>('/api/payment/status', { query: { payment, reference }, redirectOnAuthError: false }),
    cancel: (payment: string, reference: string) => api.post<PaymentAnswer>('/api/payment/cancel', { payment, reference }, { redirectOnAuthError: false }),
    /** The account's invoices and credit notes (`items`, `credit_notes`), read by features/profile/creditNotes.ts. */
    invoices: () => api.get<unknown>('/api/profile/invoices', { redirectOnAuthError: false }),
    /** An invoice or credit note PDF: a plain link with the key in the query (download routes accept it). */
    invoiceUrl: (path: string) => api.url(path, { token: key() ?? undefined }),
  };
}

export type PaymentCalls = ReturnType<typeof makePaymentCalls>;
