/**
 * Pins against the real bt server (docs/product.md §2.2 "Pins wall"): pin metric rows from the results overlay of
 * a real backtest, see them in the dashboard's wall and in the standalone 'Mes épingles' of a
 * second tab (no reload: storage event), survive a reload, narrow the wall with its filters, open
 * Détails, remove them down to the empty state. Run: `npm run build -w @bt/web`, then
 * `npx tsx --conditions=@bt/source --test e2e/pins.test.ts`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startBtServer, type RunningServer } from './bt-server.js';
import { api, newPage, signedInContext } from './dashboard-setup.js';
import { newUser, repoDir, shot, type TestUser } from './work-area-support.js';


let browser: Browser;
let server: RunningServer;
let user: TestUser;
let context: BrowserContext;
let dashboard: Page;
let wall: Page;

before(async () => {
  [server, browser] = await Promise.all([startBtServer(repoDir), launchBrowser()]);
  user = await newUser(server, { verified: true, first: 'pins', last: 'Test' });
  await api(server.url, user).runBacktest();
  context = await signedInContext(browser, user);
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** Picks, in a bucket row's pin picker, the option of a metric. */
async function pinFromPicker(picker: Locator, metric: string): Promise<void> {
  const label = await picker.locator('option', { hasText: new RegExp(`^${metric} :`) }).first().innerText();
  await picker.selectOption({ label });
}

/** The first row of the open sheet whose picker offers the metric with a value. */
async function rowPickerWith(page: Page, metric: string): Promise<Locator> {
  const pickers = page.getByTestId('pin-row-select');
  await pickers.first().waitFor();
  const count = await pickers.count();
  for (let i = 0; i < count; i++) {
    if ((await pickers.nth(i).locator('option', { hasText: new RegExp(`^${metric} :`) }).count()) > 0) return pickers.nth(i);
  }
  throw new Error(`no row offers ${metric}`);
}

const cards = (page: Page) => page.getByTestId('pin-card');

/**
 * Polls the number of pin cards through locators: a string predicate (waitForFunction) is eval'd
 * in the page, which the app's Content-Security-Policy (no 'unsafe-eval') refuses.
 */
async function waitForCount(page: Page, count: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await cards(page).count()) !== count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} pin cards, found ${await cards(page).count()}`);
    await page.waitForTimeout(100);
  }
}

describe('pins against the bt server', () => {
  it('pins metric rows of a results overlay; the wall shows them at once, in a second tab too, and after a reload', async () => {
    dashboard = await newPage(context);
    await dashboard.goto(`${server.url}/dashboard`);
    await dashboard.getByTestId('backtest-card').getByRole('button', { name: 'Voir résultats' }).click();
    await dashboard.getByRole('tab', { name: 'Résumé global', selected: true }).waitFor();
    const pinWinrate = dashboard.getByRole('button', { name: 'Épingler Winrate TP1' });
    await pinWinrate.click();
    await dashboard.getByRole('button', { name: 'Retirer l’épingle Winrate TP1' }).waitFor();
    await dashboard.getByRole('button', { name: 'Épingler Trades', exact: true }).click();

    await dashboard.getByRole('tab', { name: 'Par heure' }).click();
    await pinFromPicker(await rowPickerWith(dashboard, 'Winrate TP1'), 'Winrate TP1');
    await shot(dashboard, 'pins-01-overlay-hours', false);
    await dashboard.getByRole('tab', { name: 'Par jour' }).click();
    await pinFromPicker(await rowPickerWith(dashboard, 'Trades'), 'Trades');
    await dashboard.getByRole('tab', { name: 'Par session' }).click();
    await dashboard.getByRole('tab', { name: 'Par session', selected: true }).waitFor();
    await pinFromPicker(dashboard.getByRole('row', { name: /Londres 08-12/ }).getByTestId('pin-row-select'), 'Winrate TP1');
    await dashboard.keyboard.press('Escape');

    await dashboard.getByTestId('pins-toggle').click();
    await waitForCount(dashboard, 5);
    await shot(dashboard, 'pins-02-dashboard-wall');

    // A second tab of the same browser: the standalone wall.
    wall = await newPage(context);
    await wall.goto(`${server.url}/dashboard?view=epingles`);
    await wall.getByRole('heading', { name: 'Mes épingles' }).waitFor();
    await waitForCount(wall, 5);

    // A removal in the first tab reaches the second without a reload (storage event).
    await cards(dashboard).filter({ hasText: 'Résumé global' }).filter({ hasText: /^Trades/ }).getByRole('button', { name: 'Retirer' }).click();
    await waitForCount(dashboard, 4);
    await waitForCount(wall, 4);

    // Détails opens the overlay on the pin's sheet; a pin made there reaches the first tab.
    await cards(wall).filter({ hasText: 'Par heure' }).getByRole('button', { name: 'Détails' }).click();
    await wall.getByRole('tab', { name: 'Par heure', selected: true }).waitFor();
    await pinFromPicker(wall.getByTestId('pin-row-select').first(), 'Trades');
    await wall.keyboard.press('Escape');
    await waitForCount(wall, 5);
    await waitForCount(dashboard, 5);

    await dashboard.reload();
    await dashboard.getByTestId('pins-toggle').click();
    await waitForCount(dashboard, 5);
    const stored = JSON.parse((await dashboard.evaluate<string | null>(`localStorage.getItem('btPins_v1')`)) ?? '[]') as { type: string; tz?: number }[];
    assert.equal(stored.length, 5);
    assert.ok(stored.filter((p) => p.type === 'per-hour').every((p) => p.tz === 1), 'per-hour pins keep the zone they were seen in (Brussels in January)');
    assert.match(await cards(dashboard).filter({ hasText: 'Par heure' }).first().innerText(), /\d\dh \(UTC\+1\)/);
  });

  it('the filters narrow the wall; Heure / Session / Jour follow the type; advanced Paire, Stratégie, Tri and search', async () => {
    const count = () => cards(wall).count();
    await wall.getByTestId('pins-type').selectOption({ label: 'Par heure' });
    await wall.getByTestId('pins-hour').waitFor();
    assert.equal(await count(), 2);
    assert.equal(await wall.getByTestId('pins-session').count(), 0);
    const hours = await wall.getByTestId('pins-hour').locator('option').allInnerTexts();
    assert.equal(hours[0], 'Toutes');
    assert.equal(hours.length, 2, 'both per-hour pins are on the same hour');
    await wall.getByTestId('pins-metric').selectOption({ label: 'Trades' });
    assert.equal(await count(), 1);
    await wall.getByTestId('pins-metric').selectOption({ label: 'Toutes' });
    await wall.getByTestId('pins-type').selectOption({ label: 'Par session' });
    await wall.getByTestId('pins-session').selectOption({ label: 'Londres' });
    assert.equal(await count(), 1);
    assert.equal(await wall.getByTestId('pins-hour').count(), 0);
    await wall.getByTestId('pins-type').selectOption({ label: 'Par jour' });
    await wall.getByTestId('pins-day').waitFor();
    assert.equal(await count(), 1);
    await wall.getByTestId('pins-type').selectOption({ label: 'Tous' });
    assert.equal(await count(), 5);
    await wall.getByTestId('pins-period').selectOption({ label: '2–31 janvier 2023' });
    assert.equal(await count(), 5);
    await wall.getByTestId('pins-metric').selectOption({ label: 'Winrate TP1' });
    assert.equal(await count(), 3);
    await wall.getByTestId('pins-metric').selectOption({ label: 'Toutes' });

    await wall.getByRole('button', { name: 'Filtres avancés' }).click();
    assert.deepEqual(await wall.getByTestId('pins-pair').locator('option').allInnerTexts(), ['Toutes', 'EURUSD']);
    assert.deepEqual(await wall.getByTestId('pins-strategy').locator('option').allInnerTexts(), ['Toutes', 'OB pullback pur']);
    await wall.getByTestId('pins-sort').selectOption({ label: 'Valeur ↓' });
    const down = await wall.getByTestId('pin-value').allInnerTexts();
    await wall.getByTestId('pins-sort').selectOption({ label: 'Valeur ↑' });
    const up = await wall.getByTestId('pin-value').allInnerTexts();
    assert.deepEqual(up, [...down].reverse());
    await wall.getByTestId('pins-search').fill('londres');
    assert.equal(await count(), 1);
    await shot(wall, 'pins-03-standalone-filtered');
    await wall.getByTestId('pins-search').fill('pas de telle épingle');
    await wall.getByText('Aucune épingle ne correspond à ces filtres.').waitFor();
    await wall.getByTestId('pins-search').fill('');
    assert.equal(await count(), 5);
  });

  it('Retirer empties the wall in both tabs down to the empty message', async () => {
    while ((await cards(wall).count()) > 0) {
      const before = await cards(wall).count();
      await cards(wall).first().getByRole('button', { name: 'Retirer' }).click();
      await waitForCount(wall, before - 1);
    }
    await wall.getByText('Aucune épingle pour le moment.').waitFor();
    await dashboard.getByText('Aucune épingle pour le moment.').waitFor();
    await shot(wall, 'pins-04-empty');
  });
});
