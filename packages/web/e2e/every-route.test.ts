/**
 * Every route of the route table (docs/product.md §3.2) at a 375 px phone and a 1440 px desktop,
 * in Chromium against the real bt server: as a visitor, as a signed-in user, and as the admin for
 * /admin. On each: the document is no wider than the window, no emoji stands in for an icon in the
 * rendered text, and a full-page screenshot is kept (test-results/web-e2e/every-route-*.png, or
 * BT_SCREENSHOTS). Then, at 375 px, the statistics modals keep their close button on screen and
 * the result charts' axis labels do not run into each other.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, newUser, runBacktest, shot, type TestUser, useServerAndBrowser } from './work-area-support.js';

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
  return { scrollWidth: doc.documentElement.scrollWidth, innerWidth, culprits: culprits.slice(0, 6), pictographs };
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

/** A context per role (one browser for the file), signed in by the `apiKey` parameter when given. */
async function roleContext(browser: Browser, baseUrl: string, key: string | null): Promise<{ context: BrowserContext; page: Page; errors: Error[] }> {
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 800 }, locale: 'fr-FR', reducedMotion: 'reduce' });
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

/** Visits each path at each width and returns every fault found (an empty list passes). */
async function visitAll(browser: Browser, baseUrl: string, role: string, key: string | null, paths: string[], expect?: (path: string, page: Page) => Promise<void>): Promise<string[]> {
  const { context, page, errors } = await roleContext(browser, baseUrl, key);
  const faults: string[] = [];
  try {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
      for (const path of paths) {
        await page.goto(baseUrl + path);
        await settle(page);
        await expect?.(path, page);
        const m = await page.evaluate(measure, ICON_GLYPHS);
        await shot(page, `every-route-${width}-${role}-${slug(path)}`);
        if (m.scrollWidth > m.innerWidth) faults.push(`${role} ${path} @${width}: document ${m.scrollWidth} px wide > ${m.innerWidth}\n    ${m.culprits.join('\n    ')}`);
        if (m.pictographs.length) faults.push(`${role} ${path} @${width}: pictographs as icons: ${[...new Set(m.pictographs)].join(' | ')}`);
      }
    }
  } finally {
    await context.close();
  }
  if (errors.length) faults.push(`${role}: uncaught errors in the page: ${errors.map((e) => e.message).join(' | ')}`);
  return faults;
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

  it('the admin console, as the admin', async () => {
    const faults = await visitAll(running.browser, running.server.url, 'admin', adminKey, ADMIN, async (path, page) => {
      assert.equal(new URL(page.url()).pathname, path, `${path} stays open to the admin`);
    });
    assert.deepEqual(faults, []);
  });
});
