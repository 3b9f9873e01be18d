/**
 * Paid actions are sent once (docs/product.md §2.6: a CSV costs 1 credit, a backtest 2) in Chromium
 * against the real bt server: a double click on 'Lancer le backtest' sends one run; two CSV
 * downloads at once keep both buttons off until each answer is in, so a second click on the slower
 * one sends nothing. Run after `npm run build -w @bt/web`:
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
