/**
 * The comparator (/comparateur, docs/product.md §2.2, §2.4, §2.8, §2.9) in Chromium against the real bt server:
 * five real backtests made through the API, then the list, the 1-to-4 selection, every metric and
 * chart type drawn as an SVG with marks, the ids preselection and the empty and error states.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api, newUser, repoDir, runBacktest, shot, signedInPage, type TestUser, useServerAndBrowser } from './work-area-support.js';

const METRICS = ['session', 'day', 'hour', 'winrate_tp1', 'winrate_tp2', 'trades_count', 'sl_rate'];
const TYPES = ['bars', 'line', 'radar'] as const;
/** The mark each chart type must draw (Plot labels its mark groups). */
const MARK: Record<(typeof TYPES)[number], string> = { bars: 'g[aria-label="bar"] rect', line: 'g[aria-label="line"] path', radar: 'g[aria-label="dot"] circle' };

let user: TestUser;
const running = useServerAndBrowser(async ({ server }) => {
  user = await newUser(server, { verified: true, credits: 8 });
  for (const strategy of ['fvg_pullback_multi', 'ob_pullback_pure', 'englobante_entry', 'fvg_impulsive', 'englobante_entry_rsi']) await runBacktest(server, user.key, { strategy });
});

/**
 * Clicks each chart type in turn and waits, inside the page, until its SVG has marks and the legend
 * one entry per analysis: one round trip per metric (the machine is shared and slow).
 */
async function checkCharts(page: Page, metric: string, series: number, types: readonly (typeof TYPES)[number][] = TYPES): Promise<void> {
  const drawn = await page.evaluate(
    async ({ types, metric, series, marks }) => {
      // Runs in the page (the e2e project has no DOM types).
      const doc = (globalThis as unknown as { document: { querySelector(s: string): any } }).document;
      const outcome: Record<string, boolean> = {};
      for (const type of types) {
        doc.querySelector(`[data-testid=chart-type-${type}]`).click();
        const deadline = Date.now() + 10_000;
        outcome[type] = false;
        while (Date.now() < deadline) {
          const result = doc.querySelector(`[data-testid=compare-result][data-metric="${metric}"]`);
          const svg = result?.querySelector(`[data-testid=compare-chart] svg[data-chart-type="${type}"]`);
          if (svg && svg.querySelectorAll(marks[type]).length >= 1 && result.querySelectorAll('[data-testid=compare-legend] li').length === series) {
            outcome[type] = true;
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
      return outcome;
    },
    { types, metric, series, marks: MARK },
  );
  for (const type of types) assert.ok(drawn[type], `${type} / ${metric} / ${series} analyses: an SVG with marks and one legend entry per analysis`);
}

describe('comparator against the bt server', () => {
  it('lists the analyses, draws 1 to 4 of them for every metric and chart type, and refuses a fifth', async () => {
    const page = await signedInPage(running.browser, running.server, user.key, '/comparateur');
    await page.getByRole('heading', { name: 'Comparateur' }).waitFor();
    const boxes = page.getByTestId('analysis-checkbox');
    await boxes.nth(4).waitFor();
    assert.equal(await boxes.count(), 5);
    assert.match(await page.getByTestId('analysis-list').locator('li').first().innerText(), /EURUSD\s+M15[\s\S]*trades/);
    assert.equal(await page.getByTestId('compare-hint').innerText(), 'Sélectionne 1 à 4 analyses pour afficher le graphique.');

    for (let n = 1; n <= 4; n++) {
      await boxes.nth(n - 1).check();
      await checkCharts(page, 'session', n, n === 1 ? TYPES : ['bars']);
      if (n === 4) {
        for (const metric of METRICS) {
          await page.getByTestId('metric-select').selectOption(metric);
          await checkCharts(page, metric, n);
        }
        await page.getByTestId('metric-select').selectOption('session');
      }
    }
    // Four ticked: the fifth row is disabled and stays unticked.
    assert.equal(await boxes.nth(4).isDisabled(), true);
    assert.equal(await boxes.nth(4).isChecked(), false);
    assert.equal(await page.getByTestId('selection-count').innerText(), '4/4');

    await page.getByTestId('chart-type-bars').click();
    await shot(page, 'comparator-01-bars-session');
    await page.getByTestId('metric-select').selectOption('day');
    await page.locator('[data-testid=compare-result][data-metric="day"]').waitFor();
    assert.deepEqual(await page.getByTestId('compare-table').locator('tbody th').allInnerTexts(), ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim']);
    assert.doesNotMatch((await page.getByTestId('compare-table').getAttribute('class'))!, /\bscrolls\b/, '7 buckets: no table scroll');
    await page.getByTestId('chart-type-radar').click();
    await shot(page, 'comparator-02-radar-day');
    await page.getByTestId('metric-select').selectOption('hour');
    await page.locator('[data-testid=compare-result][data-metric="hour"]').waitFor();
    assert.match((await page.getByTestId('compare-table').getAttribute('class'))!, /scrolls/, '24 buckets: the table scrolls');
    await page.getByTestId('chart-type-line').click();
    await shot(page, 'comparator-03-line-hour');

    // Unticking frees the fifth row again.
    await boxes.nth(0).uncheck();
    assert.equal(await boxes.nth(4).isDisabled(), false);
    await page.context().close();
  });

  it('preselects the ids parameter (known ids, at most 4) and searches the list', async () => {
    const options = (await api(running.server, 'GET', '/api/compare/options', { key: user.key })).body;
    const ids: string[] = options.items.map((i: { id: number }) => String(i.id));
    const page = await signedInPage(running.browser, running.server, user.key, `/comparateur?ids=${[ids[2], '999999', ids[0], ids[1], ids[3], ids[4]].join(',')}`);
    await page.getByTestId('compare-result').waitFor();
    const checked = await page.getByTestId('analysis-checkbox').evaluateAll((nodes) => nodes.filter((n) => (n as unknown as { checked: boolean }).checked).map((n) => n.getAttribute('data-id')));
    assert.deepEqual(new Set(checked), new Set([ids[2], ids[0], ids[1], ids[3]]));
    assert.equal(await page.getByTestId('compare-legend').locator('li').count(), 4);

    await page.getByTestId('analysis-search').fill('2023-01');
    assert.equal(await page.getByTestId('analysis-checkbox').count(), 5);
    await page.getByTestId('analysis-search').fill('GBPJPY 1999');
    await page.getByText('Aucune analyse trouvée.').waitFor();
    await page.context().close();
  });

  it('shows the empty and error states', async () => {
    const fresh = await newUser(running.server);
    const empty = await signedInPage(running.browser, running.server, fresh.key, '/comparateur');
    await empty.getByText('Aucune analyse trouvée.').waitFor();
    await empty.context().close();

    // The server does not fail on demand: the browser drops the calls instead.
    const page = await signedInPage(running.browser, running.server, null, '/home');
    await page.route('**/api/compare/options', (route) => route.abort());
    await page.goto(`${running.server.url}/comparateur?apiKey=${user.key}`);
    await page.getByText('Impossible de charger vos analyses.').waitFor();
    await page.unroute('**/api/compare/options');
    await page.route('**/api/compare/data', (route) => route.fulfill({ status: 500, json: { detail: 'Erreur serveur' } }));
    await page.reload();
    await page.getByTestId('analysis-checkbox').first().check();
    await page.getByTestId('compare-error').waitFor();
    assert.equal(await page.getByTestId('compare-error').innerText(), 'Erreur lors du chargement des données.');
    assert.equal(await page.getByTestId('compare-chart').count(), 0, 'no chart on a failed fetch');
    await shot(page, 'comparator-04-data-error');
    await page.context().close();
  });
});
