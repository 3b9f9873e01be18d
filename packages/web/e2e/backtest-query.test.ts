/**
 * The backtest screen's address and failures (docs/product.md §2.2, §1.8) in Chromium against the
 * real bt server: `?strategy=` preselects a personal strategy (also through the dashboard's
 * 'Utiliser') and leaves the address; `?symbol=` chooses a known pair and a timeframe it has;
 * the import panel's file field has its label; a run that gets no answer says so in French and
 * gives the button back. Run after `npm run build -w @bt/web`:
 * `npx tsx --conditions=@bt/source --test e2e/backtest-query.test.ts`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { api as userApi, BREAKOUT_PY } from './dashboard-setup.js';
import { api, credits, newUser, repoDir, shot, signedInPage, useServerAndBrowser } from './work-area-support.js';

// Eight accounts from 127.0.0.1 in a minute: the sign-up and login windows are raised, as the flows' harness does.
const running = useServerAndBrowser(undefined, async () => ({ env: { RATE_LIMIT_LOGIN: '200/60', RATE_LIMIT_REGISTER: '200/3600' } }));

describe('backtest screen: address and failures', () => {
  it("?strategy= selects the personal strategy once the list is in, then leaves the address; so does the dashboard's 'Utiliser'", async () => {
    const user = await newUser(running.server, { verified: true });
    const imported = await userApi(running.server.url, user).importStrategy('breakout.py', BREAKOUT_PY, 'note');
    const id = String((imported.strategy as Record<string, unknown>).id);

    // Opened straight from the address (the key stored first, as a returning user has it).
    const page = await signedInPage(running.browser, running.server, user.key, '/home');
    await page.goto(`${running.server.url}/backtest?strategy=${encodeURIComponent(id)}`);
    await page.waitForURL((url) => !url.searchParams.has('strategy'));
    const picker = page.getByTestId('user-strategy');
    await picker.locator(`option[value="${id}"]`).waitFor({ state: 'attached' });
    assert.equal(await picker.inputValue(), id, 'the personal strategy is chosen');
    assert.equal(await page.locator('.picker.active select').getAttribute('id'), 'user-strategy', 'the personal picker is the active source');

    // From the dashboard, a client-side navigation with the session already loaded.
    await page.goto(`${running.server.url}/dashboard`);
    await page.getByTestId('strategy-card').getByRole('link', { name: 'Utiliser' }).click();
    await page.waitForURL((url) => url.pathname === '/backtest' && !url.searchParams.has('strategy'));
    await page.getByTestId('user-strategy').locator(`option[value="${id}"]`).waitFor({ state: 'attached' });
    assert.equal(await page.getByTestId('user-strategy').inputValue(), id);
    await shot(page, 'backtest-query-01-strategy');

    // The import panel's file field is named by its label, as the panel's other fields are.
    await page.getByRole('button', { name: 'Importer un .py' }).click();
    assert.equal(await page.getByLabel('Fichier .py').getAttribute('data-testid'), 'import-file');
    await page.context().close();
  });

  it('tabbing through the pickers keeps the strategy chosen: focus alone never switches the source', async () => {
    const user = await newUser(running.server, { verified: true });
    const imported = await userApi(running.server.url, user).importStrategy('breakout.py', BREAKOUT_PY, 'note');
    const id = String((imported.strategy as Record<string, unknown>).id);
    const page = await signedInPage(running.browser, running.server, user.key, '/home');
    await page.goto(`${running.server.url}/backtest?symbol=EURUSD&strategy=${encodeURIComponent(id)}`);
    await page.waitForURL((url) => !url.searchParams.has('strategy'));
    const active = () => page.locator('.picker.active select').getAttribute('id');
    assert.equal(await active(), 'user-strategy', 'the personal strategy of the address is active');

    // The official strategy chosen, then Tab past the personal picker to the next fields.
    await page.getByTestId('official-strategy').selectOption('ob_pullback_pure');
    assert.equal(await active(), 'official-strategy');
    await page.getByTestId('official-strategy').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'user-strategy');
    await page.keyboard.press('Tab');
    assert.equal(await active(), 'official-strategy', 'passing through the personal picker leaves the official one active');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await active(), 'official-strategy', 'and so does coming back through it');

    // The run sends the official strategy, not the personal one the picker still shows.
    await page.getByTestId('timeframe').selectOption('M15');
    await page.getByTestId('start-date').fill('2023-01-02');
    await page.getByTestId('end-date').fill('2023-01-31');
    const sent = page.waitForRequest('**/api/run_backtest');
    await page.getByTestId('run-backtest').click();
    assert.equal(JSON.parse((await sent).postData() ?? '{}').strategy, 'ob_pullback_pure');
    await page.getByTestId('result-card').or(page.getByTestId('form-error')).first().waitFor({ timeout: 60_000 });

    // A key on the personal picker (choosing with the keyboard) does make it the active source.
    await page.getByTestId('user-strategy').focus();
    assert.equal(await active(), 'official-strategy');
    await page.keyboard.press('ArrowDown');
    assert.equal(await active(), 'user-strategy');
    await page.context().close();
  });

  it("a personal list that fails to load says so, not that the user has no strategy", async () => {
    const user = await newUser(running.server, { verified: true });
    await userApi(running.server.url, user).importStrategy('breakout.py', BREAKOUT_PY, 'note');
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'fr-FR', reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.route('**/api/user/strategies', (route) => route.fulfill({ status: 500, json: { detail: 'Erreur serveur' } }));
    await page.goto(`${running.server.url}/backtest?apiKey=${user.key}`);
    const first = page.getByTestId('user-strategy').locator('option').first();
    // Once the list has been asked, its first line reads the failure, never 'no strategy'.
    await page.waitForFunction(() => !['Chargement…', undefined].includes((globalThis as any).document.querySelector('[data-testid=user-strategy] option')?.textContent));
    assert.equal(await first.innerText(), 'Erreur de chargement');
    await page.unroute('**/api/user/strategies');
    await page.reload();
    await page.getByTestId('user-strategy').locator('option', { hasText: 'Cassure simple' }).waitFor({ state: 'attached' });
    assert.equal(await page.getByTestId('user-strategy').locator('option').first().innerText(), '— Choisir —');
    await context.close();
  });

  it('a custom CSV file: the symbol typed is upper-cased, the file goes as multipart, the result is shown and costs 2 credits', async () => {
    const user = await newUser(running.server, { verified: true });
    const before = await credits(running.server, user.key);
    // About four weeks of real EURUSD H1 candles (fixtures/official), the whole file: dates are optional here.
    const lines = readFileSync(join(repoDir, 'fixtures', 'official', 'EURUSD_H1_2017-2018.csv'), 'utf8').split('\n').slice(0, 480);
    const page = await signedInPage(running.browser, running.server, user.key, '/backtest');
    await page.getByRole('radio', { name: 'CSV personnalisé' }).click();
    await page.getByTestId('official-strategy').selectOption('fvg_pullback_multi');
    await page.getByTestId('csv-file').setInputFiles({ name: 'mon-eurusd.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n') + '\n') });
    await page.getByTestId('custom-symbol').fill('eurusd');
    assert.equal(await page.getByTestId('custom-symbol').inputValue(), 'EURUSD');
    await page.getByTestId('timeframe').selectOption('H1');
    await page.getByTestId('sl-pips').fill('20');
    await page.getByTestId('tp1-pips').fill('20');
    await page.getByTestId('tp2-pips').fill('40');
    const sent = page.waitForRequest('**/api/upload_csv_and_backtest');
    await page.getByTestId('run-backtest').click();
    assert.match((await sent).headers()['content-type'] ?? '', /^multipart\/form-data/);
    const card = page.getByTestId('result-card');
    await card.or(page.getByTestId('form-error')).first().waitFor({ timeout: 90_000 });
    // The message is read only when there is an error: innerText() on no element waits its 30 s.
    const errors = await page.getByTestId('form-error').count();
    assert.equal(errors, 0, errors ? await page.getByTestId('form-error').innerText() : '');
    // The card says "Chargement des résultats…" until the result view's chunk has loaded: its
    // text is read once the title is there (a CI run on a loaded machine read the fallback).
    await card.getByText(/EURUSD · H1 · FVG pullback multi/).first().waitFor({ timeout: 30_000 });
    assert.match(await card.innerText(), /EURUSD · H1 · FVG pullback multi/);
    assert.equal(await credits(running.server, user.key), before - 2);
    // What the server ran: the typed symbol upper-cased, the chosen strategy and timeframe.
    const runs = await api(running.server, 'GET', '/api/user/backtests', { key: user.key });
    const run = (runs.body.items as Record<string, unknown>[])[0];
    assert.deepEqual([run.symbol, run.timeframe, run.strategy], ['EURUSD', 'H1', 'fvg_pullback_multi']);
    await page.context().close();
  });

  it('a visitor who runs the form and signs in from the prompt finds the form as it was', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, null, '/backtest?symbol=EURUSD');
    await page.getByTestId('official-strategy').selectOption('ob_pullback_pure');
    await page.getByTestId('timeframe').selectOption('M15');
    await page.getByTestId('start-date').fill('2023-01-02');
    await page.getByTestId('end-date').fill('2023-01-31');
    await page.getByTestId('sl-pips').fill('20');
    await page.getByTestId('tp1-pips').fill('30');
    await page.getByTestId('run-backtest').click();
    await page.getByRole('dialog', { name: 'Connexion requise' }).getByRole('link', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const form = page.getByTestId('login-form');
    await form.getByLabel('E-mail ou nom d’utilisateur').fill(user.email);
    await form.getByLabel('Mot de passe').fill(user.password);
    await form.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL((url) => url.pathname === '/backtest');
    await page.getByTestId('avatar').waitFor();
    const values = async () => Promise.all(['symbol', 'official-strategy', 'timeframe', 'start-date', 'end-date', 'sl-pips', 'tp1-pips'].map((id) => page.getByTestId(id).inputValue()));
    assert.deepEqual(await values(), ['EURUSD', 'ob_pullback_pure', 'M15', '2023-01-02', '2023-01-31', '20', '30']);
    // Given back once: a later visit starts afresh.
    await page.goto(`${running.server.url}/backtest`);
    await page.getByTestId('official-strategy').waitFor();
    assert.equal(await page.getByTestId('sl-pips').inputValue(), '100');
    await page.context().close();
  });

  it('?symbol= chooses the pair and, once the library is known, a timeframe it has; an unknown pair chooses nothing', async () => {
    // XAUUSD: H4 only in the seeded library (the default timeframe is M15); the pair sheets of /a-savoir link so.
    const page = await signedInPage(running.browser, running.server, null, '/backtest?symbol=xauusd');
    assert.equal(await page.getByTestId('symbol').inputValue(), 'XAUUSD');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid=timeframe]').value === 'H4');
    await page.getByTestId('data-range').getByText(/Données disponibles en H4/).waitFor();
    assert.equal(await page.locator('[data-preset="lastMonth"]').isDisabled(), false, 'the presets count back from its data');

    await page.goto(`${running.server.url}/backtest?symbol=FOO`);
    await page.getByTestId('official-strategy').selectOption('ob_pullback_pure');
    await page.getByTestId('start-date').fill('2023-01-02');
    await page.getByTestId('end-date').fill('2023-01-31');
    assert.equal(await page.getByTestId('symbol').inputValue(), '');
    assert.equal(await page.getByTestId('run-backtest').isDisabled(), true, 'no pair shown, none sent');
    await page.context().close();
  });

  it('a run that gets no answer says "Erreur réseau." and gives the button back, without spending credits', async () => {
    const user = await newUser(running.server, { verified: true });
    const before = await credits(running.server, user.key);
    const page = await signedInPage(running.browser, running.server, user.key, '/backtest?symbol=EURUSD');
    await page.getByTestId('official-strategy').selectOption('ob_pullback_pure');
    await page.getByTestId('timeframe').selectOption('M15');
    await page.getByTestId('start-date').fill('2023-01-02');
    await page.getByTestId('end-date').fill('2023-01-31');
    await page.route('**/api/run_backtest', (route) => route.abort('internetdisconnected'));
    await page.getByTestId('run-backtest').click();
    const error = page.getByTestId('form-error');
    await error.waitFor();
    assert.equal(await error.innerText(), 'Erreur réseau.');
    assert.equal(await page.getByTestId('run-backtest').isDisabled(), false, 'the button is back');
    assert.equal(await credits(running.server, user.key), before);
    await page.context().close();
  });
});
