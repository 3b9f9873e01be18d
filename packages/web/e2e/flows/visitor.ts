/**
 * What a visitor sees without an account: home with the top strategies the server ranks, their
 * public statistics, the guards, the connection prompt, the 375 px menu, legal and support pages.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { HOURLY_TIME_ZONES, SHEET_TAB_LABELS, dayToMs, formatIntegerFr, formatPercentFr, formatPeriodFr } from '@bt/core/format';
import { newAccount, registerVerified, runOfficialBacktest, topStrategies, type OfficialRun } from '../support/api.js';
import type { Flow } from '../support/flow.js';

/**
 * Official strategies on the seeded EURUSD M15 month (fixtures/smc, docs/server.md "Dataset
 * store"); each run has well over TOP_MIN_TRADES resolved trades, so it is public.
 */
const SEED_RUNS: OfficialRun[] = ['fvg_impulsive', 'englobante_entry', 'fvg_pullback_multi'].map((strategy) => ({
  strategy,
  symbol: 'EURUSD',
  timeframe: 'M15',
  start: '2023-01-02',
  end: '2023-01-31',
  sl: 10,
  tp1: 10,
  tp2: 20,
}));

export function visitorFlow(flow: Flow): void {
  describe('a visitor', () => {
    before(async () => {
      // Every verified account has 2 credits, one backtest: one trader per seeded result.
      for (const run of SEED_RUNS) {
        const key = await registerVerified(flow.h.url, newAccount('Seed', 'Trader'));
        await runOfficialBacktest(flow.h.url, key, run);
      }
    });

    it('sees the home page and the top strategies the server ranks', async () => {
      const top = await topStrategies(flow.h.url);
      assert.ok(top.length >= SEED_RUNS.length, `the seeded results are public (got ${top.length})`);
      const { page, close } = await flow.h.newPage({ animated: true });
      await page.goto(`${flow.h.url}/`);
      await page.getByTestId('hero-cta').waitFor();
      assert.equal(await page.getByTestId('hero-cta').getAttribute('href'), '/backtest');
      assert.equal(await page.getByTestId('credits-badge').innerText(), '— crédits');
      assert.equal(await page.locator('#hex-canvas').getAttribute('data-mode'), 'animated');
      const cards = page.getByTestId('top-strategy-card');
      await cards.first().waitFor();
      assert.equal(await cards.count(), Math.min(6, top.length));
      for (const [i, item] of top.slice(0, 6).entries()) {
        const card = cards.nth(i);
        assert.equal(await card.locator('.pair').innerText(), item.pair);
        assert.equal(await card.locator('.tf-badge').innerText(), item.timeframe);
        assert.equal(await card.locator('.strategy-name').innerText(), item.strategy_label);
        // The API's `2023-01-02 → 2023-01-31` reads '2–31 janvier 2023' on the card, as on the dashboard.
        assert.equal(await card.locator('.period').innerText(), formatPeriodFr(dayToMs(item.from_date)!, dayToMs(item.to_date)!));
        assert.equal(await card.locator('.winrate').innerText(), formatPercentFr(item.winrate_tp1));
        assert.equal(await card.locator('.trades').innerText(), formatIntegerFr(item.trades));
      }
      await flow.h.shot(page, '01-home-top-strategies');
      await close();
    });

    it('opens the public statistics of a top strategy: six sheets, no trade list, no private rows', async () => {
      const [best] = await topStrategies(flow.h.url);
      const { page, close } = await flow.h.newPage();
      await page.goto(`${flow.h.url}/home`);
      await page.getByTestId('top-strategy-card').first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: `${best.pair} ${best.timeframe} — ${best.strategy_label}` }).waitFor();
      const tabs = dialog.getByRole('tablist', { name: 'Feuilles du classeur' }).getByRole('tab');
      await tabs.first().waitFor();
      assert.deepEqual(await tabs.allInnerTexts(), ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global'].map((s) => SHEET_TAB_LABELS[s as keyof typeof SHEET_TAB_LABELS]));
      assert.equal(await dialog.getByRole('tab', { selected: true }).innerText(), 'Résumé global', 'Global is the default tab');
      const table = dialog.getByTestId('sheet-table');
      await table.waitFor();
      assert.match(await table.innerText(), /Winrate TP1\s+\d+,\d{2}\u202f%/);
      await flow.h.shot(page, '02-public-stats-global', false);
      await dialog.locator('[data-sheet="Config"]').click();
      await table.locator('[data-metric="strategy"]').waitFor();
      const config = await table.innerText();
      assert.ok(config.includes(best.strategy_label), 'the Config sheet describes the run');
      for (const hidden of ['run_id', 'user_id', 'run_seq']) assert.ok(!config.includes(hidden), `${hidden} stays private`);
      await dialog.locator('[data-sheet="Par_Heure"]').click();
      await table.locator('tbody tr').first().waitFor();
      assert.equal(await dialog.getByTestId('tz-select').locator('option').count(), HOURLY_TIME_ZONES.length);
      await flow.h.shot(page, '03-public-stats-hours', false);
      await dialog.getByTestId('stats-cta').click();
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('tab') === 'register' && url.searchParams.get('next') === '/backtest');
      await page.getByTestId('register-form').waitFor();
      await close();
    });

    it('is sent to /login with the next parameter by the guards; /auth is the sign-in page; unknown paths go home', async () => {
      const { page, close } = await flow.h.newPage();
      for (const path of ['/dashboard?tab=csv#x', '/profile', '/admin']) {
        await page.goto(`${flow.h.url}${path}`);
        await page.waitForURL(/\/login\?next=/);
        assert.equal(new URL(page.url()).searchParams.get('next'), path);
      }
      await page.getByTestId('login-form').waitFor();
      await flow.h.shot(page, '04-guard-login-next');
      await page.goto(`${flow.h.url}/nowhere/at/all`);
      await page.waitForURL(/\/home$/);
      // The reference page's FAQ says to retry on /auth: it is the sign-in page, its query kept.
      await page.goto(`${flow.h.url}/auth?tab=register`);
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('tab') === 'register');
      await page.getByTestId('register-form').waitFor();
      await close();
    });

    it('gets the connection prompt when launching a backtest', async () => {
      const { page, close } = await flow.h.newPage();
      await page.goto(`${flow.h.url}/backtest?symbol=EURUSD`);
      assert.equal(await page.getByTestId('symbol').inputValue(), 'EURUSD', 'the symbol parameter preselects the pair');
      await page.getByTestId('start-date').fill('2023-01-02');
      await page.getByTestId('end-date').fill('2023-01-31');
      await page.getByTestId('run-backtest').click();
      const prompt = page.getByRole('dialog', { name: 'Connexion requise' });
      await prompt.waitFor();
      assert.equal(await prompt.getByRole('link', { name: 'Se connecter' }).getAttribute('href'), '/login?tab=login&next=%2Fbacktest%3Fsymbol%3DEURUSD');
      await flow.h.shot(page, '05-visitor-connect-prompt');
      await close();
    });

    it('at 375 px sees the hamburger; the menu closes on navigation', async () => {
      const { page, close } = await flow.h.newPage({ width: 375, height: 800 });
      await page.goto(`${flow.h.url}/home`);
      assert.equal(await page.locator('#hex-canvas').getAttribute('data-mode'), 'lite', 'reduced motion draws the background once');
      const burger = page.getByRole('button', { name: 'Menu' });
      await burger.waitFor();
      assert.equal(await page.locator('#main-nav').isVisible(), false);
      await burger.click();
      assert.equal(await page.locator('#main-nav').isVisible(), true);
      await flow.h.shot(page, '06-mobile-menu', false);
      await page.locator('#main-nav').getByRole('link', { name: 'À savoir' }).click();
      await page.waitForURL(/\/a-savoir$/);
      assert.equal(await page.locator('#main-nav').isVisible(), false);
      await close();
    });

    it('reads the legal pages and writes to support, with the spec messages', async () => {
      const { page, close } = await flow.h.newPage();
      await page.goto(`${flow.h.url}/legal/cgu`);
      await page.getByText('Dernière mise à jour : 13-10-2025').waitFor();
      await page.getByText('Les crédits ne sont ni remboursables ni convertibles en argent.').waitFor();
      await page.goto(`${flow.h.url}/support/support`);
      assert.equal(await page.locator('meta[name=robots]').getAttribute('content'), 'noindex, nofollow');
      const form = page.getByTestId('support-form');
      assert.deepEqual((await form.locator('label').allInnerTexts()).map((t) => t.trim()), ['Prénom', 'Nom', 'E-mail', 'Message'], 'Prénom then Nom, as sign-up asks');
      await form.getByLabel('Nom', { exact: true }).fill('Lima');
      await form.getByLabel('Prénom').fill('Ana');
      await form.getByLabel('E-mail').fill('ana.bt.test');
      await form.getByLabel('Message').fill('Bonjour, une question sur les Golden Hours.');
      await page.getByTestId('support-submit').click();
      await page.getByText('Merci d’entrer une adresse e-mail valide (doit contenir un @).').waitFor();
      await form.getByLabel('E-mail').fill('ana@bt.test');
      await page.getByTestId('support-submit').click();
      await page.getByTestId('support-submit').getByText('Envoyé').waitFor();
      await flow.h.shot(page, '07-support-sent');
      await close();
    });
  });
}
