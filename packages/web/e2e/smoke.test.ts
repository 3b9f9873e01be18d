/**
 * Browser smoke test of the built app against the real bt server (foundation endpoints: accounts,
 * sessions, profile). Run: `npm run build -w @bt/web && npm run e2e -w @bt/web`. Screenshots go to
 * test-results/web-e2e/ (or BT_SCREENSHOTS). The backtest run itself waits for issue 6's endpoints:
 * here it checks the form's messages, then runs a backtest whose answer, sheets and workbook are
 * served by page.route from core's own statistics and report (result-fixture.ts) — to be pointed
 * at the real endpoints when they land.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startBtServer, type RunningServer } from './bt-server.js';
import { backtestFixture } from './result-fixture.js';
import { serveApp, type CannedAnswer } from './static-server.js';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = join(webDir, '..', '..');
const shots = process.env.BT_SCREENSHOTS ?? join(repoDir, 'test-results', 'web-e2e');
mkdirSync(shots, { recursive: true });

let browser: Browser;
let server: RunningServer;
let app: { url: string; close: () => Promise<void> };
let apiTarget: string | null = null;
const canned = new Map<string, CannedAnswer>();

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
}

async function newPage(width = 1280, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'fr-FR' });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return page;
}

const user = { first: 'Ana', last: 'Lima', email: `ana.${Date.now()}@bt.test`, username: `ana${Date.now()}`, password: 'motdepasse-123' };

before(async () => {
  app = await serveApp(join(webDir, 'dist'), () => apiTarget, canned);
  server = await startBtServer(repoDir, { publicUrl: () => app.url });
  apiTarget = server.url;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await app?.close();
});

describe('web app against the bt server', () => {
  it('a visitor sees the home page, its call to action and the top-strategies area', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/`);
    await page.getByTestId('hero-cta').waitFor();
    assert.equal(await page.getByTestId('hero-cta').getAttribute('href'), '/backtest');
    assert.equal(await page.getByTestId('credits-badge').innerText(), '— crédits');
    await page.locator('.top-strategies .top-message, .top-strategies [data-testid=top-strategy-card]').first().waitFor();
    assert.equal(await page.locator('#hex-canvas').count(), 1);
    await shot(page, '01-home');
    await page.context().close();
  });

  it('guards send visitors to /login with the next parameter; unknown paths go home', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/dashboard?tab=csv#x`);
    await page.waitForURL(/\/login\?next=/);
    assert.equal(new URL(page.url()).searchParams.get('next'), '/dashboard?tab=csv#x');
    await page.goto(`${app.url}/nowhere/at/all`);
    await page.waitForURL(/\/home$/);
    await page.context().close();
  });

  it('registers, shows the success overlay, verifies the address and gets the credits', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/login?tab=register&next=%2Fbacktest`);
    const form = page.getByTestId('register-form');
    await form.getByLabel('Prénom').fill(user.first);
    await form.getByLabel('Nom', { exact: true }).fill(user.last);
    await form.getByLabel('E-mail').fill('pas un email');
    await form.getByLabel('Nom d’utilisateur').fill(user.username);
    await form.getByLabel('Mot de passe').fill(user.password);
    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.getByText('Adresse e-mail invalide.').waitFor();
    await form.getByLabel('E-mail').fill(user.email);
    await form.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.getByTestId('signup-success').waitFor();
    await shot(page, '02-signup-success');
    const verifyHref = await page.getByTestId('signup-success').getByRole('link', { name: 'confirme ton adresse ici' }).getAttribute('href');
    assert.ok(verifyHref, 'without SMTP the server returns the verification link');
    assert.equal(await page.getByTestId('credits-badge').count(), 0, 'the login page has no top bar');
    await page.getByTestId('signup-continue').click();
    await page.waitForURL(/\/backtest$/);
    assert.equal(await page.getByTestId('credits-badge').innerText(), '0 crédits');
    await page.goto(verifyHref!);
    await page.waitForURL(/\/profile\?verified=1/);
    await page.getByTestId('credits-badge').getByText('2').waitFor();
    assert.equal(await page.getByTestId('avatar').innerText(), 'AL');
    await shot(page, '03-verified-profile');
    await page.context().close();
  });

  it('logs in with the username and goes to the next path', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/login?next=%2Fprofile`);
    await page.getByTestId('login-form').getByLabel('E-mail ou nom d’utilisateur').fill(user.username);
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill('wrong-password');
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill(user.password);
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/profile$/);
    assert.equal(await page.getByRole('link', { name: 'Admin' }).count(), 0, 'no Admin entry for a user');
    await page.goto(`${app.url}/admin`);
    await page.waitForURL(/\/dashboard$/);
    await page.context().close();
  });

  it('the backtest form shows the spec messages', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/login?next=%2Fbacktest`);
    await page.getByTestId('login-form').getByLabel('E-mail ou nom d’utilisateur').fill(user.email);
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill(user.password);
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/backtest$/);
    await page.getByTestId('symbol').selectOption('EURUSD');
    await page.getByTestId('start-date').fill('2025-01-01');
    await page.getByTestId('end-date').fill('2025-02-15');
    await page.getByTestId('run-backtest').click();
    assert.equal(await page.getByTestId('form-error').innerText(), 'Choisis une stratégie (officielle ou générée).');
    await page.getByTestId('official-strategy').selectOption('ob_pullback_pure_rsi');
    await page.getByTestId('run-backtest').click();
    assert.equal(await page.getByTestId('form-error').innerText(), 'Période trop longue (46 jours). Maximum: 31 jours.');
    await page.getByTestId('end-date').fill('2024-12-01');
    await page.getByTestId('run-backtest').click();
    assert.equal(await page.getByTestId('form-error').innerText(), 'La date de début doit être ≤ à la date de fin.');
    await shot(page, '04-backtest-validation');
    await page.context().close();
  });

  it('runs a backtest: progress, results card, charts, every sheet, time zones, workbook, credits badge', async () => {
    const fixture = await backtestFixture({ symbol: 'EURUSD', timeframe: 'M15', strategy: 'ob_pullback_pure_rsi', start: '2025-01-01', end: '2025-01-31', slPips: 100, creditsRemaining: 0 });
    const page = await newPage();
    let sent: Record<string, unknown> | null = null;
    await page.route('**/api/run_backtest', async (route) => {
      sent = route.request().postDataJSON();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.fulfill({ json: fixture.answer });
    });
    await page.route('**/api/user/backtests/xlsx/meta?*', (route) => route.fulfill({ json: { sheets: [...fixture.sheets.keys()].map((name) => ({ name })) } }));
    await page.route('**/api/user/backtests/xlsx/sheet?*', (route) => {
      const name = new URL(route.request().url()).searchParams.get('sheet')!;
      return route.fulfill({ json: fixture.sheets.get(name) });
    });
    canned.set(`/api/download/${fixture.file}`, {
      status: 200,
      headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Content-Disposition': `attachment; filename="${fixture.file}"` },
      body: fixture.workbook,
    });

    await page.goto(`${app.url}/login?next=%2Fbacktest%3Fsymbol%3DEURUSD`);
    await page.getByTestId('login-form').getByLabel('E-mail ou nom d’utilisateur').fill(user.username);
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill(user.password);
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/backtest\?symbol=EURUSD$/);
    assert.equal(await page.getByTestId('symbol').inputValue(), 'EURUSD', 'the symbol parameter preselects the pair');
    await page.getByTestId('credits-badge').getByText('2').waitFor();
    await page.getByTestId('official-strategy').selectOption('ob_pullback_pure_rsi');
    await page.getByTestId('start-date').fill('2025-01-01');
    await page.getByTestId('end-date').fill('2025-01-31');
    await page.getByTestId('overlap-touch').uncheck();
    await page.getByRole('button', { name: '25 %' }).click();
    await page.getByTestId('run-backtest').click();
    await page.getByTestId('run-progress').waitFor();
    await shot(page, '07-backtest-running');
    await page.getByTestId('result-card').waitFor();
    assert.equal((sent as Record<string, unknown> | null)?.symbol, 'EURUSD');
    assert.equal(((sent as unknown as { params: Record<string, unknown> }).params).min_overlap_ratio, 0.25);
    await page.getByTestId('credits-badge').getByText('0', { exact: true }).waitFor();
    await page.getByTestId('chart-hours').locator('svg').first().waitFor();
    assert.ok((await page.getByTestId('chart-weekdays').locator('svg').count()) >= 1);
    assert.ok((await page.getByTestId('chart-hours').getByText('★').count()) >= 1, 'golden hours are marked');
    await shot(page, '08-backtest-results');

    const href = await page.getByTestId('download-xlsx').getAttribute('href');
    const link = new URL(href!, app.url);
    assert.equal(link.pathname, `/api/download/${fixture.file}`);
    assert.equal(link.searchParams.get('folder'), fixture.folder);
    assert.ok(link.searchParams.get('apiKey'), 'the download link carries the key');
    const download = page.waitForEvent('download');
    await page.getByTestId('download-xlsx').click();
    const file = await (await download).path();
    const { readFileSync } = await import('node:fs');
    assert.equal(readFileSync(file!).subarray(0, 2).toString(), 'PK', 'the workbook is a zip (xlsx)');

    await page.getByTestId('open-stats').click();
    const tabs = page.getByRole('tablist', { name: 'Feuilles du classeur' }).getByRole('tab');
    assert.deepEqual(await tabs.allInnerTexts(), ['Configuration', 'Résumé global', 'Par session', 'Par heure', 'Par jour', 'TP2 global', 'Trades']);
    assert.equal(await page.getByRole('tab', { selected: true }).innerText(), 'Résumé global', 'Global is the default tab');
    for (const name of ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades']) {
      await page.locator(`[data-sheet="${name}"]`).click();
      await page.getByTestId('sheet-table').first().waitFor();
      await shot(page, `09-sheet-${name}`, false);
    }
    await page.locator('[data-sheet="Config"]').click();
    const config = await page.getByTestId('sheet-table').innerText();
    assert.ok(config.includes('sl_pips') && !config.includes('run_id') && !config.includes('user_id') && !config.includes('run_seq'));
    await page.locator('[data-sheet="Global"]').click();
    assert.match(await page.getByTestId('sheet-table').innerText(), /Winrate TP1\s+\d+\.\d{2}%/);
    await page.locator('[data-sheet="Par_Heure"]').click();
    const firstHour = async () => (await page.getByTestId('sheet-table').locator('tbody tr').first().locator('td').first().innerText()).trim();
    assert.equal(await firstHour(), '00h');
    assert.match(await page.getByTestId('sheet-table').locator('thead').innerText(), /Bruxelles, UTC\+1/);
    await page.getByTestId('tz-select').selectOption('America/New_York');
    assert.match(await page.getByTestId('sheet-table').locator('thead').innerText(), /New York, UTC-5/);
    await page.context().close();
  });

  it('an admin sees the Admin entry and reaches /admin', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/login?next=%2Fadmin`);
    await page.getByTestId('login-form').getByLabel('E-mail ou nom d’utilisateur').fill(server.admin.email);
    await page.getByTestId('login-form').getByLabel('Mot de passe').fill(server.admin.password);
    await page.getByTestId('login-form').getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    await page.getByRole('link', { name: 'Admin' }).waitFor();
    await page.context().close();
  });

  it('at 375 px the links fold into a hamburger that closes on navigation', async () => {
    const page = await newPage(375, 800);
    await page.goto(`${app.url}/home`);
    const burger = page.getByRole('button', { name: 'Menu' });
    await burger.waitFor();
    assert.equal(await page.locator('#main-nav').isVisible(), false);
    await burger.click();
    assert.equal(await page.locator('#main-nav').isVisible(), true);
    await shot(page, '05-mobile-menu');
    await page.locator('#main-nav').getByRole('link', { name: 'À savoir' }).click();
    await page.waitForURL(/\/a-savoir$/);
    assert.equal(await page.locator('#main-nav').isVisible(), false);
    await page.context().close();
  });

  it('legal and support pages render with their texts', async () => {
    const page = await newPage();
    await page.goto(`${app.url}/legal/cgu`);
    await page.getByText('Dernière mise à jour : 13-10-2025').waitFor();
    await page.getByText('Les crédits ne sont ni remboursables ni convertibles en argent.').waitFor();
    await page.goto(`${app.url}/support/support`);
    assert.equal(await page.locator('meta[name=robots]').getAttribute('content'), 'noindex, nofollow');
    await page.getByTestId('support-form').getByLabel('Nom', { exact: true }).fill('Lima');
    await page.getByTestId('support-form').getByLabel('Prénom').fill('Ana');
    await page.getByTestId('support-form').getByLabel('E-mail').fill('ana.bt.test');
    await page.getByTestId('support-form').getByLabel('Message').fill('Bonjour');
    await page.getByTestId('support-submit').click();
    await page.getByText('Merci d’entrer une adresse e-mail valide (doit contenir un @).').waitFor();
    await page.getByTestId('support-form').getByLabel('E-mail').fill('ana@bt.test');
    await page.getByTestId('support-submit').click();
    await page.getByTestId('support-submit').getByText('Envoyé').waitFor();
    await shot(page, '06-support-sent');
    await page.context().close();
  });
});
