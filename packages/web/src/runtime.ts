/**
 * The browser's single instances: storage, API client, calls, session, loading bar, analytics.
 * Everything under api/, session/, shell/ and analytics/ is plain logic; this file binds it to
 * window, localStorage, fetch and the build-time settings.
 */
import { createApiClient } from './api/client.js';
import { makeCalls, makePaymentCalls, makeWorkAreaCalls } from './api/calls.js';
import { makeLinkedFileFetcher } from './api/files.js';
import { normalizeApiHost } from './api/url.js';
import { Analytics, MemorySink } from './analytics/analytics.js';
import { browserCreditsChannel } from './session/creditsChannel.js';
import { browserStorage, readStoredKey } from './session/keyStorage.js';
import { SessionStore } from './session/store.js';
import { LoadingBarController } from './shell/loadingBar.js';
import { ToastStore } from './components/toasts.js';

function listSetting(value: string | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

export const storage = browserStorage();
/** This tab's storage (sessionStorage): the payments confirmed here and their purchase_success event. */
export const tabStorage = browserStorage('sessionStorage');

/** VITE_API_HOST at build time; empty means the page's own origin (the bt server serves both). */
export const apiHost = normalizeApiHost(import.meta.env.VITE_API_HOST as string | undefined);

export const api = createApiClient({
  fetch: (url, init) => globalThis.fetch(url, init),
  now: () => Date.now(),
  location: () => window.location,
  redirect: (url) => window.location.assign(url),
  getKey: () => readStoredKey(storage),
  apiHost,
});

export const calls = makeCalls(api);
/** Comparator, CSV shop and profile calls. */
export const work = makeWorkAreaCalls(api);
/** Download links fetched before saving (the workbook), with the stored key. */
export const linkedFiles = makeLinkedFileFetcher({ fetch: (url, init) => globalThis.fetch(url, init), getKey: () => readStoredKey(storage) });
/** Pricing, payment returns, invoices. */
export const payments = makePaymentCalls(api, () => readStoredKey(storage));

export const session = new SessionStore({
  storage,
  fetchProfile: (key) => calls.me(key),
  pingAdmin: (key) => calls.adminPing(key),
  revokeKey: (key) => calls.logout(key),
  credits: browserCreditsChannel(),
});

export const loadingBar = new LoadingBarController({
  setInterval: (fn, ms) => window.setInterval(fn, ms),
  clearInterval: (handle) => window.clearInterval(handle as number),
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
});

/** The app's confirmations (components/Toaster.tsx shows them). */
export const toasts = new ToastStore({ setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (handle) => window.clearTimeout(handle as number) });

const debugAnalytics = (() => {
  try {
    return localStorage.getItem('btAnalyticsDebug') === '1';
  } catch {
    return false;
  }
})();

/** In-memory sink: no third-party script ships; set localStorage.btAnalyticsDebug=1 to log events. */
export const analyticsSink = new MemorySink(debugAnalytics ? console.debug.bind(console) : null);

export const analytics = new Analytics(analyticsSink, {
  hostname: window.location.hostname,
  excludedEmails: listSetting(import.meta.env.VITE_ANALYTICS_EXCLUDED_EMAILS as string | undefined),
  internalDomains: listSetting(import.meta.env.VITE_ANALYTICS_INTERNAL_DOMAINS as string | undefined),
});

declare global {
  interface Window {
    /** Read by the end-to-end tests and for debugging; holds no secret. */
    __btAnalytics?: MemorySink;
  }
}
window.__btAnalytics = analyticsSink;
