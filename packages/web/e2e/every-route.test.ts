/**
 * Every route of the route table (docs/product.md §3.2) at a 375 px phone and a 1440 px desktop,
 * in Chromium against the real bt server: as a visitor, as a signed-in user, and as the admin for
 * /admin. On each: the document is no wider than the window, no control or text sticks out of its
 * card's padding, no emoji stands in for an icon in the rendered text, every icon-only button is
 * named, no chart axis label is written over its neighbour, and a full-page screenshot is kept
 * (test-results/web-e2e/every-route-*.png, or BT_SCREENSHOTS); the measures are
 * support/layout.ts's. Then, at 375 px, the statistics modals keep their close button on screen
 * and the result charts' axis labels do not run into each other. And with the longest names the
 * server accepts, written without a space (docs/web.md "Long names"), the pages and dialogs that
 * show them stay inside the window.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertDialogOnScreen, axisLabelClashes, roleContext, visitAll } from './support/layout.js';
import { api, grantCredits, newUser, runBacktest, shot, type TestUser, useServerAndBrowser } from './work-area-support.js';

/** Public routes (visited as a visitor, then as a user where being signed in changes the screen). */
const PUBLIC = [
  '/',
  '/home',
  '/pricing',
  '/csv-shop',
  '/backtest',
  '/a-savoir',
  '/a-savoir/strategies',
  '/success',
  '/login',
  '/login?tab=register',
  '/forgot-password',
  '/reset-password/e2e-token',
  '/resetpassword/forgot-password',
  '/resetpassword/reset-password/e2e-token',
  '/legal/mentions-legales',
  '/legal/politique-confidentialite',
  '/legal/cgu',
  '/support',
  '/support/support',
];
/** Signed-in routes, and the public screens that change once signed in. */
const SIGNED_IN = ['/dashboard', '/comparateur', '/profile', '/backtest', '/csv-shop', '/pricing', '/home'];
const ADMIN = ['/admin'];
let user: TestUser;
let adminKey: string;
const running = useServerAndBrowser(async ({ server }) => {
  user = await newUser(server, { verified: true, credits: 6 });
  // One real result: the dashboard, the home page's top strategies and the statistics modals have content.
  await runBacktest(server, user.key);
  const login = await api(server, 'POST', '/api/login', { json: { identifier: server.admin.email, password: server.admin.password } });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  adminKey = login.body.token;
});

describe('every route at 375 and 1440 px', () => {
  it('public routes, as a visitor: no horizontal overflow, no pictograph as icon', async () => {
    const faults = await visitAll(running.browser, running.server.url, 'visitor', null, PUBLIC);
    assert.deepEqual(faults, []);
  });

  it('signed-in routes, as a user', async () => {
    const faults = await visitAll(running.browser, running.server.url, 'user', user.key, SIGNED_IN, async (path, page) => {
      assert.equal(new URL(page.url()).pathname, path, `${path} stays open to a signed-in user`);
    });
    assert.deepEqual(faults, []);
  });

  it('at 375 px: statistics modals keep their close button on screen, wide tables and charts fade at the hidden edge, chart labels do not collide', async () => {
    // The home page's public statistics modal, as a visitor.
    const visitor = await roleContext(running.browser, running.server.url, null);
    try {
      await visitor.page.goto(`${running.server.url}/home`);
      await visitor.page.getByTestId('top-strategy-card').first().click();
      await visitor.page.getByRole('dialog').getByTestId('sheet-table').waitFor();
      await assertDialogOnScreen(visitor.page, 'public statistics modal');
      await shot(visitor.page, 'every-route-375-visitor-home-stats-modal', false);
    } finally {
      await visitor.context.close();
    }

    // A run on /backtest on the phone: its result charts, its trades table, its statistics modal.
    const owner = await roleContext(running.browser, running.server.url, user.key);
    try {
      const { page } = owner;
      await page.goto(`${running.server.url}/backtest`);
      await page.getByTestId('official-strategy').selectOption('fvg_pullback_multi');
      await page.getByTestId('symbol').selectOption('EURUSD');
      await page.getByTestId('timeframe').selectOption('M15');
      await page.getByTestId('data-range').waitFor();
      await page.locator('[data-preset="lastMonth"]').click();
      await page.getByTestId('run-backtest').click();
      await page.getByTestId('chart-hours').locator('svg').first().waitFor({ timeout: 60_000 });
      await page.getByTestId('equity-chart').locator('svg').first().waitFor();
      const axes = await page.evaluate(axisLabelClashes);
      assert.ok(axes.charts >= 5 && axes.labels >= 20, `the result charts are drawn with their axes (${JSON.stringify(axes)})`);
      assert.deepEqual(axes.clashes, [], 'no axis label written over its neighbour at 375 px');
      const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      assert.ok(width <= 375, `the page with its result stays 375 px wide (${width})`);

      // The trades table is wider than a phone: it scrolls in its box, whose right edge fades
      // until the reader reaches the last column.
      const trades = page.locator('.scroll-x', { has: page.getByTestId('trades-table') });
      await trades.scrollIntoViewIfNeeded();
      assert.equal(await trades.getAttribute('data-more-end'), '', 'more columns to the right: the right edge fades');
      assert.equal(await trades.getAttribute('data-more-start'), null);
      await shot(page, 'every-route-375-user-backtest-result');
      await trades.evaluate((node: any) => node.scrollTo({ left: node.scrollWidth }));
      await page.waitForFunction((node: any) => node.hasAttribute('data-more-start') && !node.hasAttribute('data-more-end'), await trades.elementHandle());

      await page.getByTestId('open-stats').click();
      await page.getByRole('dialog').getByTestId('sheet-table').waitFor();
      await assertDialogOnScreen(page, 'statistics modal of /backtest');
      await shot(page, 'every-route-375-user-backtest-stats-modal', false);
      await page.getByRole('dialog').getByRole('button', { name: 'Fermer' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      // The comparator's chart keeps its desktop width and scrolls in its box on a phone, with
      // the same fade; its hour labels stay apart.
      await page.goto(`${running.server.url}/comparateur`);
      await page.getByTestId('analysis-checkbox').first().check();
      await page.getByTestId('metric-select').selectOption('hour');
      await page.locator('[data-testid=compare-result][data-metric="hour"] [data-testid=compare-chart] svg').first().waitFor();
      const chartBox = page.locator('.scroll-x', { has: page.getByTestId('compare-chart') });
      await page.waitForFunction((node: any) => node.hasAttribute('data-more-end'), await chartBox.elementHandle());
      const compared = await page.evaluate(axisLabelClashes);
      assert.ok(compared.labels >= 12, `the comparator's chart has its axes (${JSON.stringify(compared)})`);
      assert.deepEqual(compared.clashes, [], 'no axis label of the comparator written over its neighbour at 375 px');
      const comparatorWidth = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
      assert.ok(comparatorWidth <= 375, `the comparator with its chart stays 375 px wide (${comparatorWidth})`);
      await shot(page, 'every-route-375-user-comparateur-chart');
    } finally {
      await owner.context.close();
    }
    for (const errors of [visitor.errors, owner.errors]) assert.deepEqual(errors.map((e) => e.message), []);
  });

  it('the longest names the server accepts, written without a space, keep every page inside the window', async () => {
    // Names are the user's to choose: 100-character first and last names, a 191-character e-mail
    // address, a 32-character username, a strategy named with 120 characters, all unbroken; and a
    // balance of six digits.
    const server = running.server;
    const tag = `${process.pid}${Date.now() % 100000}`;
    const person = {
      first_name: 'W'.repeat(100),
      last_name: 'M'.repeat(100),
      email: `${'w'.repeat(191 - 8 - tag.length)}${tag}@bt.test`,
      username: `long${'w'.repeat(28 - tag.length)}${tag}`,
      password: 'motdepasse-123',
    };
    assert.equal(person.email.length, 191);
    const registered = await api(server, 'POST', '/api/register', { json: person });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const key = registered.body.token as string;
    assert.equal((await fetch(registered.body.verifyUrl, { redirect: 'manual' })).status, 302);
    // And a balance of six digits in the header's badge: 100,000 credits, granted 1,000 at a time.
    const id = (await api(server, 'GET', '/api/me', { key })).body.id;
    for (let i = 0; i < 100; i++) await grantCredits(server, id, 1000);
    const form = new FormData();
    const source = `NAME = "${'N'.repeat(200)}"\nDESCRIPTION = "${'D'.repeat(2000)}"\n\n\ndef detect_every_tenth(candles, params):\n    return [{"index": i, "side": "buy" if i % 20 else "sell"} for i in range(10, len(candles["close"]), 10)]\n`;
    form.append('file', new Blob([source], { type: 'text/x-python' }), 'long.py');
    const imported = await fetch(`${server.url}/api/user/strategies/import`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
    const strategy = (await imported.json()) as { strategy: { id: string; display_name: string } };
    assert.equal(imported.status, 201, JSON.stringify(strategy));
    assert.equal(strategy.strategy.display_name, 'N'.repeat(120));
    // A result of it: the dashboard's history and the comparator's list show its name.
    await runBacktest(server, key, { strategy: strategy.strategy.id, sl_pips: 10, tp1_pips: 10, tp2_pips: 20 });
    const faults = await visitAll(running.browser, server.url, 'long-names', key, ['/dashboard', '/profile', '/backtest', '/comparateur', '/home']);
    assert.deepEqual(faults, []);
    // The strategy's details, on a phone: its name, file name and 2,000-character description break
    // inside the dialog, which does not scroll sideways.
    const owner = await roleContext(running.browser, server.url, key);
    try {
      await owner.page.goto(`${server.url}/dashboard`);
      await owner.page.getByTestId('strategy-card').getByRole('button', { name: 'Détails' }).click();
      await owner.page.getByRole('dialog').waitFor();
      await assertDialogOnScreen(owner.page, 'the details of a strategy with long names');
      const body = await owner.page.locator('[role=dialog] .modal-body').evaluate((node: any) => [node.scrollWidth, node.clientWidth]);
      assert.ok(body[0] <= body[1], `the dialog's body does not scroll sideways (${body})`);
      const note = await owner.page.getByTestId('strategy-note').evaluate((node: any) => [node.scrollWidth, node.clientWidth]);
      assert.ok(note[0] <= note[1], `the card's note breaks inside its box (${note})`);
      await shot(owner.page, 'every-route-375-long-names-strategy-details', false);
    } finally {
      await owner.context.close();
    }
    assert.deepEqual(owner.errors.map((e) => e.message), []);
    // The admin's list of users shows the address and the names too.
    assert.deepEqual(await visitAll(running.browser, server.url, 'admin-long-names', adminKey, ['/admin?tab=users', '/admin?tab=history', '/admin?tab=backtests', '/admin?tab=strategies']), []);
    // On a phone, the admin's dialogs about that user (the history, the deletion) keep the address inside them.
    const phone = await roleContext(running.browser, server.url, adminKey);
    try {
      await phone.page.goto(`${server.url}/admin?tab=users`);
      const row = phone.page.locator(`[data-testid=user-row][data-user-id="${id}"]`);
      for (const [button, what] of [['user-history', 'history'], ['user-delete', 'deletion']] as const) {
        await row.getByTestId(button).click();
        await phone.page.getByRole('dialog').waitFor();
        await assertDialogOnScreen(phone.page, `the ${what} dialog of a user with long names`);
        const body = await phone.page.locator('[role=dialog]').evaluate((node: any) => [...node.querySelectorAll('*')].filter((el: any) => el.scrollWidth > el.clientWidth + 1 && (globalThis as any).getComputedStyle(el).overflowX !== 'visible').map((el: any) => `${el.className} ${el.scrollWidth}>${el.clientWidth}`));
        assert.deepEqual(body.filter((b: string) => !/table-box|scroll-x/.test(b)), [], `the ${what} dialog scrolls sideways only in its tables`);
        await shot(phone.page, `every-route-375-admin-long-names-${what}`, false);
        await phone.page.keyboard.press('Escape');
        await phone.page.getByRole('dialog').waitFor({ state: 'detached' });
      }
    } finally {
      await phone.context.close();
    }
    assert.deepEqual(phone.errors.map((e) => e.message), []);
    // There the names are cut with an ellipsis, whole in their title, so the other columns stay in view.
    const admin = await roleContext(running.browser, server.url, adminKey, 1440);
    try {
      for (const [tab, name] of [['strategies', 'N'.repeat(120)], ['users', person.email], ['backtests', 'N'.repeat(120)]]) {
        await admin.page.goto(`${server.url}/admin?tab=${tab}`);
        const cell = admin.page.locator(`.cell-clamp[title="${name}"]`).first();
        await cell.waitFor();
        const width = (await cell.boundingBox())!.width;
        assert.ok(width < 320, `${tab}: the name is cut to its column (${width} px)`);
      }
    } finally {
      await admin.context.close();
    }
  });

  it('the admin console, as the admin', async () => {
    const faults = await visitAll(running.browser, running.server.url, 'admin', adminKey, ADMIN, async (path, page) => {
      assert.equal(new URL(page.url()).pathname, path, `${path} stays open to the admin`);
    });
    assert.deepEqual(faults, []);
  });
});
