/**
 * Every route of the route table (docs/product.md §3.2) at a 375 px phone and a 1440 px desktop,
 * in Chromium against the real bt server: as a visitor, as a signed-in user, and as the admin for
 * /admin. On each: the document is no wider than the window, no control or text sticks out of its
 * card's padding, no emoji stands in for an icon in the
 * rendered text, every icon-only button is named, no chart axis label is written over its neighbour, and a full-page screenshot is kept (test-results/web-e2e/every-route-*.png, or
 * BT_SCREENSHOTS). Then, at 375 px, the statistics modals keep their close button on screen and
 * the result charts' axis labels do not run into each other. And with the longest names the server
 * accepts, written without a space (docs/web.md "Long names"), the pages that show them stay inside
 * the window.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, grantCredits, newUser, runBacktest, shot, type TestUser, useServerAndBrowser } from './work-area-support.js';

const WIDTHS = [375, 1440] as const;

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

/**
 * Pictographs standing for icons: any Extended_Pictographic code point (emoji, ⚠, ⏱, ✔ …) and the
 * dingbats used as marks (★ ✓ ✕ ⬢), which fonts without colour emoji draw as empty boxes. ©, ® and
 * ™ are typography, not icons; arrows such as → and ↓ in text are typography too.
 */
const ICON_GLYPHS = '[\\p{Extended_Pictographic}\\u2605\\u2606\\u2713\\u2715-\\u2718\\u2B21\\u2B22](?<![\\u00A9\\u00AE\\u2122])';

interface Measure {
  path: string;
  scrollWidth: number;
  innerWidth: number;
  /** The widest elements past the right edge that are not inside a scrolling box. */
  culprits: string[];
  /** Text (or accessible names) carrying a pictograph, with the pictograph. */
  pictographs: string[];
  /** Icon-only buttons and links without an accessible name. */
  unnamed: string[];
  /** Elements past their card's padding. */
  outOfCard: string[];
}

/** Runs in the page: the document's width, what sticks out, and pictographs in the rendered DOM. */
function measure(glyphs: string): Omit<Measure, 'path'> {
  const w = globalThis as any;
  const doc = w.document;
  const innerWidth: number = w.innerWidth;
  const clipped = (el: any): boolean => {
    for (let node = el.parentElement; node && node !== doc.body; node = node.parentElement) {
      const overflowX = w.getComputedStyle(node).overflowX;
      if (overflowX !== 'visible') return true;
    }
    return false;
  };
  const culprits: string[] = [];
  for (const el of doc.body.querySelectorAll('*')) {
    const rect = el.getBoundingClientRect();
    if (rect.right <= innerWidth + 0.5 || rect.width === 0) continue;
    const parent = el.parentElement?.getBoundingClientRect();
    if (parent && parent.right > innerWidth + 0.5) continue;
    if (clipped(el) || w.getComputedStyle(el).position === 'fixed') continue;
    const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    culprits.push(`${name} right=${Math.round(rect.right)} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
  }
  const re = new RegExp(glyphs, 'u');
  const pictographs: string[] = [];
  const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const tag = node.parentElement?.tagName;
    if (tag === 'SCRIPT' || tag === 'STYLE') continue;
    if (re.test(node.data)) pictographs.push(`text "${node.data.trim().slice(0, 60)}"`);
  }
  for (const el of doc.body.querySelectorAll('[aria-label],[title],[placeholder]')) {
    for (const attribute of ['aria-label', 'title', 'placeholder']) {
      const value = el.getAttribute(attribute);
      if (value && re.test(value)) pictographs.push(`${attribute} "${value.slice(0, 60)}"`);
    }
  }
  // Icon-only controls (an SVG and no text) must still say what they do.
  const unnamed: string[] = [];
  for (const el of doc.body.querySelectorAll('button, a[href], [role=button]')) {
    if ((el.textContent ?? '').trim() !== '' || !el.querySelector('svg')) continue;
    const named = el.getAttribute('aria-label') || el.getAttribute('title') || el.getAttribute('aria-labelledby');
    if (!named) unnamed.push(el.outerHTML.slice(0, 80));
  }
  // Controls and text that stick out of their card's padding (inside the window, yet over the
  // card's edge): a select as wide as its longest option, a word that does not break.
  const outOfCard: string[] = [];
  for (const card of doc.body.querySelectorAll('.card')) {
    const box = card.getBoundingClientRect();
    if (box.width === 0) continue;
    const style = w.getComputedStyle(card);
    const right = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
    for (const el of card.querySelectorAll('input, select, textarea, button, p, h2, h3, label, li')) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.right <= right + 0.5 || clipped(el)) continue;
      if (el.closest('.card') !== card) continue;
      outOfCard.push(`${el.tagName.toLowerCase()} right=${Math.round(rect.right)} > ${Math.round(right)} "${(el.textContent ?? el.value ?? '').trim().slice(0, 30)}"`);
    }
  }
  return { scrollWidth: doc.documentElement.scrollWidth, innerWidth, culprits: culprits.slice(0, 6), pictographs, unnamed, outOfCard: outOfCard.slice(0, 6) };
}

/** Waits until the route has drawn: its chunk and first answers are in, fonts are laid out. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page.evaluate(async () => {
    const w = globalThis as any;
    await w.document.fonts.ready;
    await new Promise((resolve) => w.requestAnimationFrame(() => w.requestAnimationFrame(resolve)));
  });
}

const slug = (path: string) => (path === '/' ? 'root' : path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-').replace(/-$/, ''));

/** A context per role and width (one browser for the file), signed in by the `apiKey` parameter when given. */
async function roleContext(browser: Browser, baseUrl: string, key: string | null, width: number = WIDTHS[0]): Promise<{ context: BrowserContext; page: Page; errors: Error[] }> {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 812 : 900 }, locale: 'fr-FR', reducedMotion: 'reduce' });
  // tsx compiles this file with esbuild's keepNames: the functions handed to page.evaluate call
  // its `__name` helper, which the page does not have.
  await context.addInitScript('globalThis.__name = (fn) => fn');
  const page = await context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  if (key) {
    await page.goto(`${baseUrl}/home?apiKey=${encodeURIComponent(key)}`);
    await page.waitForURL((url) => !url.searchParams.has('apiKey'));
  }
  return { context, page, errors };
}

/**
 * Visits each path at each width and returns every fault found (an empty list passes). The two
 * widths run side by side, each in its own context: most of a visit is waiting for the network
 * to settle.
 */
async function visitAll(browser: Browser, baseUrl: string, role: string, key: string | null, paths: string[], expect?: (path: string, page: Page) => Promise<void>): Promise<string[]> {
  const perWidth = await Promise.all(
    WIDTHS.map(async (width) => {
      const { context, page, errors } = await roleContext(browser, baseUrl, key, width);
      const faults: string[] = [];
      try {
        for (const path of paths) {
          await page.goto(baseUrl + path);
          await settle(page);
          await expect?.(path, page);
          const m = await page.evaluate(measure, ICON_GLYPHS);
          await shot(page, `every-route-${width}-${role}-${slug(path)}`);
          if (m.scrollWidth > m.innerWidth) faults.push(`${role} ${path} @${width}: document ${m.scrollWidth} px wide > ${m.innerWidth}\n    ${m.culprits.join('\n    ')}`);
          if (m.pictographs.length) faults.push(`${role} ${path} @${width}: pictographs as icons: ${[...new Set(m.pictographs)].join(' | ')}`);
          if (m.outOfCard.length) faults.push(`${role} ${path} @${width}: past the card's padding: ${m.outOfCard.join(' | ')}`);
          if (m.unnamed.length) faults.push(`${role} ${path} @${width}: icon-only controls without a name: ${m.unnamed.join(' | ')}`);
          const axes = await page.evaluate(axisLabelClashes);
          if (axes.clashes.length) faults.push(`${role} ${path} @${width}: chart axis labels written over each other: ${axes.clashes.join(', ')}`);
        }
      } finally {
        await context.close();
      }
      if (errors.length) faults.push(`${role} @${width}: uncaught errors in the page: ${errors.map((e) => e.message).join(' | ')}`);
      return faults;
    }),
  );
  return perWidth.flat();
}

/** Runs in the page: where the open dialog and its close button sit, against the window. */
function dialogBox(): { dialog: number[]; close: number[]; innerWidth: number; innerHeight: number; scrollWidth: number } {
  const w = globalThis as any;
  const dialog = w.document.querySelector('[role=dialog]');
  const close = dialog.querySelector('.modal-close');
  const box = (el: any) => {
    const r = el.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];
  };
  return { dialog: box(dialog), close: box(close), innerWidth: w.innerWidth, innerHeight: w.innerHeight, scrollWidth: w.document.documentElement.scrollWidth };
}

async function assertDialogOnScreen(page: Page, what: string): Promise<void> {
  const m = await page.evaluate(dialogBox);
  const inside = ([left, top, right, bottom]: number[]) => left >= 0 && top >= 0 && right <= m.innerWidth && bottom <= m.innerHeight;
  assert.ok(inside(m.close), `${what}: the close button ${m.close} stays on a ${m.innerWidth}×${m.innerHeight} screen`);
  assert.ok(inside(m.dialog), `${what}: the dialog ${m.dialog} fits the ${m.innerWidth}×${m.innerHeight} screen`);
  assert.ok(m.scrollWidth <= m.innerWidth, `${what}: the document stays ${m.innerWidth} px wide (${m.scrollWidth})`);
}

/**
 * Runs in the page: the x-axis labels of each Observable Plot chart, and those unreadable: written
 * over a neighbour (flat labels must not overlap; labels at an angle must sit at least a line
 * apart across their direction) or shrunk below 8 px with a figure scaled down to its box.
 */
function axisLabelClashes(): { charts: number; labels: number; clashes: string[] } {
  const w = globalThis as any;
  const clashes: string[] = [];
  let charts = 0;
  let labels = 0;
  for (const group of w.document.querySelectorAll('svg [aria-label="x-axis tick label"], svg [aria-label="fx-axis tick label"]')) {
    charts += 1;
    const texts = [...group.querySelectorAll('text')].filter((t: any) => t.getBoundingClientRect().width > 0);
    labels += texts.length;
    const rotated = /rotate\(/.test(texts[0]?.getAttribute('transform') ?? '') || /rotate\(/.test(group.getAttribute('transform') ?? '');
    const boxes = texts.map((t: any) => ({ text: t.textContent, r: t.getBoundingClientRect() })).sort((a: any, b: any) => a.r.left - b.r.left);
    // A figure scaled down to its box shrinks its labels with it: below 8 px they are unreadable.
    for (const b of boxes) if (b.r.height < 8) clashes.push(`"${b.text}" drawn ${Math.round(b.r.height)} px high (figure scaled down)`);
    for (let i = 1; i < boxes.length; i++) {
      const a = boxes[i - 1];
      const b = boxes[i];
      const clash = rotated ? (b.r.left + b.r.right - a.r.left - a.r.right) / 2 * Math.SQRT1_2 < 11 : b.r.left < a.r.right - 0.5;
      if (clash) clashes.push(`"${a.text}" / "${b.text}"${rotated ? ' (at an angle)' : ''}`);
    }
  }
  return { charts, labels, clashes };
}

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
