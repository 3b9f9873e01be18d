/**
 * API-side setup for the dashboard and pins browser tests (users come from work-area-support's
 * newUser): a real backtest on the official EURUSD M15 data, an imported .py strategy, a bought library CSV; and a signed-in browser
 * context (the key stored as the app stores it).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** What the calls below need of a user (e2e/work-area-support.ts's newUser makes them). */
export interface TestUser {
  key: string;
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}


export function api(server: string, user: TestUser) {
  const headers = { 'X-API-Key': user.key };
  return {
    get: async (path: string) => json(await fetch(`${server}${path}`, { headers })),
    runBacktest: async (body: Record<string, unknown> = {}) =>
      json(
        await fetch(`${server}/api/run_backtest`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ strategy: 'ob_pullback_pure', symbol: 'EURUSD', timeframe: 'M15', start_date: '2023-01-02', end_date: '2023-01-31', sl_pips: 10, tp1_pips: 10, tp2_pips: 20, ...body }),
        }),
      ),
    importStrategy: async (fileName: string, code: string, note: string) => {
      const form = new FormData();
      form.append('file', new Blob([code], { type: 'text/x-python' }), fileName);
      form.append('note', note);
      return json(await fetch(`${server}/api/user/strategies/import`, { method: 'POST', headers, body: form }));
    },
    buyCsv: async (path: string) => {
      const response = await fetch(`${server}/api/download_csv_by_path/${path}?token=${encodeURIComponent(user.key)}`);
      if (!response.ok) throw new Error(`CSV purchase: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      return response.headers.get('X-Credit-Charged');
    },
  };
}

/** The breakout example of docs/strategies-python.md. */
export const BREAKOUT_PY = `"""Breakout: a close above the highest of the previous closes."""
NAME = "Cassure simple"
DESCRIPTION = "Achat quand la clôture dépasse les N clôtures précédentes."
PARAMS = {"lookback": 12}


def detect_breakout(candles, params):
    close = candles["close"]
    n = int(params["lookback"])
    signals = []
    for i in range(n, len(close)):
        if close[i] > max(close[i - n:i]):
            signals.append({"index": i, "side": "buy"})
        elif close[i] < min(close[i - n:i]):
            signals.append({"index": i, "side": "sell"})
    return signals
`;

/** A browser context signed in as the user: the key is stored before any page script runs. */
export async function signedInContext(browser: Browser, user: TestUser): Promise<BrowserContext> {
  // Reduced motion: the animated hexagon background would triple the run's CPU (the visitor flow tests it).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'fr-FR', acceptDownloads: true, reducedMotion: 'reduce' });
  // Only when absent, so a test can still sign out; a string because this tsconfig has no DOM lib.
  await context.addInitScript({ content: `if (!localStorage.getItem('apiKey')) localStorage.setItem('apiKey', ${JSON.stringify(user.key)});` });
  return context;
}

export async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return page;
}
