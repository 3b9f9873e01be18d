/**
 * Set-up shared by the comparator, CSV shop and profile browser tests: accounts, credits and
 * backtests made through the real API (as a user and as the admin would), the browser signed in
 * by the `apiKey` address parameter (docs/product.md §1.2), and screenshots.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startBtServer, type BtServerOptions, type RunningServer } from './bt-server.js';

export const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = join(webDir, '..', '..');
export const shots = process.env.BT_SCREENSHOTS ?? join(repoDir, 'test-results', 'web-e2e');
mkdirSync(shots, { recursive: true });

/**
 * The file's server and browser: started before its tests (then `setup`, in the same hook, so it
 * runs after them), stopped after them. Read the fields inside the tests.
 */
export function useServerAndBrowser(
  setup?: (running: { server: RunningServer; browser: Browser }) => Promise<void>,
  /** Read in the same hook, before the server starts (it may start what the server talks to). */
  serverOptions?: () => Promise<BtServerOptions>,
): { server: RunningServer; browser: Browser } {
  const running = {} as { server: RunningServer; browser: Browser };
  before(async () => {
    running.server = await startBtServer(repoDir, serverOptions ? await serverOptions() : {});
    running.browser = await launchBrowser();
    await setup?.(running);
  });
  after(async () => {
    await running.browser?.close();
    await running.server?.stop();
  });
  return running;
}

export async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export async function api(server: RunningServer, method: string, path: string, options: { key?: string; json?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.key) headers['X-API-Key'] = options.key;
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(server.url + path, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json), redirect: 'manual' });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // CSV or empty answers stay text.
  }
  return { status: response.status, headers: response.headers, body };
}

export interface TestUser {
  id: number;
  key: string;
  email: string;
  username: string;
  password: string;
  first: string;
  last: string;
}

let counter = 0;

/** Registers a user; `verified` follows the verification link (2 credits), `credits` adds more as the admin. */
export async function newUser(server: RunningServer, options: { verified?: boolean; credits?: number; first?: string; last?: string } = {}): Promise<TestUser> {
  counter += 1;
  const tag = `${process.pid}x${counter}x${Date.now() % 100000}`;
  const person = { first: options.first ?? 'Ana', last: options.last ?? 'Lima', email: `e2e.${tag}@bt.test`, username: `e2e${tag}`, password: 'motdepasse-123' };
  const registered = await api(server, 'POST', '/api/register', {
    json: { first_name: person.first, last_name: person.last, email: person.email, username: person.username, password: person.password },
  });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  const key = registered.body.token as string;
  if (options.verified) {
    assert.ok(registered.body.verifyUrl, 'without SMTP the server returns the verification link');
    const verify = await fetch(registered.body.verifyUrl, { redirect: 'manual' });
    assert.equal(verify.status, 302);
  }
  const me = await api(server, 'GET', '/api/me', { key });
  if (options.credits) await grantCredits(server, me.body.id, options.credits);
  return { ...person, id: me.body.id, key };
}

let adminKey: string | null = null;
let adminServer: RunningServer | null = null;

export async function grantCredits(server: RunningServer, userId: number, amount: number): Promise<void> {
  if (!adminKey || adminServer !== server) {
    const login = await api(server, 'POST', '/api/login', { json: { identifier: server.admin.email, password: server.admin.password } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    adminKey = login.body.token;
    adminServer = server;
  }
  const granted = await api(server, 'POST', '/api/admin/add_credit', { key: adminKey!, json: { user_id: userId, amount } });
  assert.equal(granted.status, 200, JSON.stringify(granted.body));
}

export async function credits(server: RunningServer, key: string): Promise<number> {
  return (await api(server, 'GET', '/api/me', { key })).body.credits;
}

/** A month of official EURUSD M15 data the seeded library holds (real data, fixtures/smc). */
export async function runBacktest(server: RunningServer, key: string, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const answer = await api(server, 'POST', '/api/run_backtest', {
    key,
    json: { strategy: 'fvg_pullback_multi', symbol: 'EURUSD', timeframe: 'M15', start_date: '2023-01-01', end_date: '2023-01-31', sl_pips: 10, tp1_pips: 10, tp2_pips: 20, ...overrides },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/**
 * A page signed in with the key given in the address (stored, then removed from it). It prefers
 * reduced motion, as every other browser test's page does: the animated hexagon background, drawn
 * without a GPU, costs headless Chromium most of a shared machine's CPU (e2e/support/harness.ts;
 * the visitor flow checks the animation itself).
 */
export async function signedInPage(browser: Browser, server: RunningServer, key: string | null, path: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'fr-FR', acceptDownloads: true, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  const url = new URL(path, server.url);
  if (key) url.searchParams.set('apiKey', key);
  await page.goto(url.toString());
  if (key) await page.waitForURL((url) => !url.searchParams.has('apiKey'));
  return page;
}

export async function badgeCredits(page: Page): Promise<string> {
  return (await page.getByTestId('credits-badge').locator('strong').innerText()).trim();
}
