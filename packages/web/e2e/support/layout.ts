/**
 * What the browser tests measure of a laid-out page (every-route.test.ts): its width against the
 * window, what sticks out of a card, pictographs standing for icons, unnamed icon-only controls,
 * chart axis labels written over each other, and dialogs against the screen; and the visits that
 * gather these faults route by route, at a phone's and a desktop's width.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { shot } from '../work-area-support.js';

export const WIDTHS = [375, 1440] as const;

/**
 * Pictographs standing for icons: any Extended_Pictographic code point (emoji, ⚠, ⏱, ✔ …) and the
 * dingbats used as marks (★ ✓ ✕ ⬢), which fonts without colour emoji draw as empty boxes. ©, ® and
 * ™ are typography, not icons; arrows such as → and ↓ in text are typography too.
 */
export const ICON_GLYPHS = '[\\p{Extended_Pictographic}\\u2605\\u2606\\u2713\\u2715-\\u2718\\u2B21\\u2B22](?<![\\u00A9\\u00AE\\u2122])';

export interface Measure {
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
export function measure(glyphs: string): Omit<Measure, 'path'> {
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
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page.evaluate(async () => {
    const w = globalThis as any;
    await w.document.fonts.ready;
    await new Promise((resolve) => w.requestAnimationFrame(() => w.requestAnimationFrame(resolve)));
  });
}

export const slug = (path: string) => (path === '/' ? 'root' : path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-').replace(/-$/, ''));

/** A context per role and width (one browser for the file), signed in by the `apiKey` parameter when given. */
export async function roleContext(browser: Browser, baseUrl: string, key: string | null, width: number = WIDTHS[0]): Promise<{ context: BrowserContext; page: Page; errors: Error[] }> {
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
export async function visitAll(browser: Browser, baseUrl: string, role: string, key: string | null, paths: string[], expect?: (path: string, page: Page) => Promise<void>): Promise<string[]> {
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
export function dialogBox(): { dialog: number[]; close: number[]; innerWidth: number; innerHeight: number; scrollWidth: number } {
  const w = globalThis as any;
  const dialog = w.document.querySelector('[role=dialog]');
  const close = dialog.querySelector('.modal-close');
  const box = (el: any) => {
    const r = el.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];
  };
  return { dialog: box(dialog), close: box(close), innerWidth: w.innerWidth, innerHeight: w.innerHeight, scrollWidth: w.document.documentElement.scrollWidth };
}

export async function assertDialogOnScreen(page: Page, what: string): Promise<void> {
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
export function axisLabelClashes(): { charts: number; labels: number; clashes: string[] } {
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
