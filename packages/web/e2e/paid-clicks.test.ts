/**
 * Paid actions are sent once (docs/product.md §2.6: a CSV costs 1 credit, a backtest 2) in Chromium
 * against the real bt server: a double click on 'Lancer le backtest' sends one run; two CSV
 * downloads at once keep both buttons off until each answer is in, so a second click on the slower
 * one sends nothing; one checkout at a time on /pricing. Run after `npm run build -w @bt/web`:
 * `npx tsx --conditions=@bt/source --test e2e/paid-clicks.test.ts`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credits, newUser, signedInPage, useServerAndBrowser } from './work-area-support.js';

const running = useServerAndBrowser();

describe('paid actions are sent once', () => {
  it('a double click on the run button sends one backtest', async () => {
    const user = await newUser(running.server, { verified: true });
    const before = await credits(running.server, user.key);
    const page = await signedInPage(running.browser, running.server, user.key, '/backtest?symbol=EURUSD');
    let runs = 0;
    await page.route('**/api/run_backtest', async (route) => {
      runs += 1;
      await route.continue();
    });
    await page.getByTestId('official-strategy').selectOption('ob_pullback_pure');
    await page.getByTestId('timeframe').selectOption('M15');
    await page.getByTestId('start-date').fill('2023-01-02');
    await page.getByTestId('end-date').fill('2023-01-31');
    await page.getByTestId('run-backtest').dblclick();
    await page.getByTestId('result-card').waitFor({ timeout: 60_000 });
    assert.equal(runs, 1);
    assert.equal(await credits(running.server, user.key), before - 2);
    await page.context().close();
  });

  it('one checkout at a time on /pricing: the other offers stay off while one is being prepared, and come back on a page shown from the cache', async () => {
    const user = await newUser(running.server, { verified: true });
    const page = await signedInPage(running.browser, running.server, user.key, '/home');
    // Card payments offered (this server has no provider configured), the checkout held until released.
    await page.route('**/api/payment/methods', (route) => route.fulfill({ json: { methods: { stripe: { available: true }, paypal: { available: false }, crypto: { available: false } } } }));
    const sessions: string[] = [];
    let release: () => void = () => {};
    await page.route('**/api/payment/stripe/session', async (route) => {
      sessions.push(String(route.request().postDataJSON()?.offer_id));
      await new Promise<void>((resolve) => (release = resolve));
      await route.fulfill({ status: 503, json: { detail: 'Paiement par carte indisponible pour le moment.' } });
    });
    await page.goto(`${running.server.url}/pricing`);
    await page.getByTestId('buy-CREDIT_5').click();
    await page.getByTestId('buy-CREDIT_5').getByText('Redirection…').waitFor();
    assert.equal(await page.getByTestId('buy-CREDIT_10').isDisabled(), true, 'the other offers are off');
    await page.getByTestId('buy-CREDIT_10').click({ force: true }).catch(() => undefined);
    assert.deepEqual(sessions, ['CREDIT_5'], 'one checkout asked for');

    // Back from a provider, a page restored from the cache gives the buttons back.
    await page.evaluate(() => (globalThis as any).dispatchEvent(new (globalThis as any).PageTransitionEvent('pageshow', { persisted: true })));
    // React renders the state the event handler set in a later task: wait for it, then check.
    await page.locator('[data-testid=buy-CREDIT_10]:not([disabled])').waitFor();
    assert.equal(await page.getByTestId('buy-CREDIT_10').isDisabled(), false);
    release();
    await page.getByTestId('pricing-notice').getByText('Paiement par carte indisponible pour le moment.').waitFor();
    await page.context().close();
  });

  it('two CSV downloads at once: the slower one stays disabled until its answer, a click on it sends nothing', async () => {
    const user = await newUser(running.server, { verified: true });
    const before = await credits(running.server, user.key);
    const page = await signedInPage(running.browser, running.server, user.key, '/csv-shop?symbol=EURUSD');
    await page.getByTestId('filter-timeframe').selectOption('M15');
    const cards = page.getByTestId('csv-card');
    await cards.nth(1).waitFor();
    const fast = (await cards.nth(0).getAttribute('data-path'))!;
    const slow = (await cards.nth(1).getAttribute('data-path'))!;
    const sent = new Map<string, number>();
    let releaseSlow: () => void = () => {};
    const slowHeld = new Promise<void>((resolve) => (releaseSlow = resolve));
    await page.route('**/api/download_csv_by_path/**', async (route) => {
      const path = decodeURIComponent(new URL(route.request().url()).pathname.replace('/api/download_csv_by_path/', ''));
      sent.set(path, (sent.get(path) ?? 0) + 1);
      if (path === slow) await slowHeld;
      await route.continue();
    });

    const slowButton = page.locator(`[data-testid=csv-card][data-path="${slow}"]`).getByTestId('csv-download');
    await slowButton.click();
    await page.locator(`[data-testid=csv-card][data-path="${fast}"]`).getByTestId('csv-download').click();
    await page.getByTestId('csv-notice').getByText('téléchargé (1 crédit)').waitFor();
    // The fast one is done; the slow one is still out: its button must still be off.
    assert.equal(await slowButton.isDisabled(), true, 'the slower download keeps its button off');
    await slowButton.click({ force: true }).catch(() => undefined);
    releaseSlow();
    await page.waitForFunction((name) => (globalThis as any).document.querySelector('[data-testid=csv-notice]')?.textContent.includes(name), slow.split('/').pop());
    assert.equal(sent.get(fast), 1);
    assert.equal(sent.get(slow), 1, 'one request for the slower file');
    assert.equal(await credits(running.server, user.key), before - 2);
    await page.context().close();
  });
});
