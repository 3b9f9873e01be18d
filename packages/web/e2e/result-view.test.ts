/**
 * Real data and the result view (docs/web.md) in Chromium against the real bt server: the backtest
 * form lists what the library holds and its presets land on data (an index, a metal and a
 * crypto instrument get trades); the result view of EURUSD M15, March 2023 (title, card equal to
 * the workbook's Global sheet, golden hours, equity curve ending at the sum of R, one entry
 * marker per trade of the Trades sheet, a trade clicked shown on the chart) at 1440 and 375 px;
 * and no number written the English way on the backtest, results, dashboard and comparator pages.
 * Run after `npm run build -w @bt/web`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SYMBOLS } from '@bt/core/catalogue';
import { openWorkbook } from '@bt/core/report';
import type { Page } from 'playwright-core';
import { api, newUser, runBacktest, shot, signedInPage, type TestUser, useServerAndBrowser } from './work-area-support.js';

let user: TestUser;
const running = useServerAndBrowser(async ({ server }) => {
  user = await newUser(server, { verified: true, credits: 30 });
});

/** The page's visible text written the English way: a decimal point between digits, or `57%` without its space. */
async function englishNumbers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // Runs in the page (the e2e project has no DOM types).
    const doc = (globalThis as unknown as { document: any }).document;
    const found: string[] = [];
    const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      // Identifiers (folder slugs, versions) are not numbers; hidden text is not read.
      if (!parent || parent.closest('[data-raw], script, style, option') || parent.getClientRects().length === 0) continue;
      const text = String(node.textContent);
      for (const m of text.matchAll(/\d+\.\d+|\d%/g)) found.push(`${m[0]} in "${text.trim().slice(0, 80)}"`);
    }
    return found;
  });
}

async function noEnglishNumbers(page: Page, where: string): Promise<void> {
  assert.deepEqual(await englishNumbers(page), [], `${where}: numbers in French only`);
}

/** Picks the official strategy, the pair and the timeframe, then a preset; returns the dates it chose. */
async function fillForm(page: Page, symbol: string, timeframe: string, sl: number, preset: string): Promise<{ start: string; end: string }> {
  await page.getByTestId('official-strategy').selectOption('fvg_pullback_multi');
  await page.getByTestId('symbol').selectOption(symbol);
  await page.getByTestId('timeframe').selectOption(timeframe);
  await page.getByTestId('data-range').waitFor();
  await page.locator(`[data-preset="${preset}"]`).click();
  for (const [field, value] of [['sl-pips', sl], ['tp1-pips', sl], ['tp2-pips', 2 * sl]] as const) await page.getByTestId(field).fill(String(value));
  return { start: await page.getByTestId('start-date').inputValue(), end: await page.getByTestId('end-date').inputValue() };
}

async function runAndWait(page: Page): Promise<void> {
  await page.getByTestId('run-backtest').click();
  await page.getByTestId('result-figures').waitFor({ timeout: 60_000 });
}

describe('real data and the result view', () => {
  it('the form lists only instruments with data; a preset lands on data: an index, a metal and a crypto get trades', async () => {
    const listed = await api(running.server, 'GET', '/api/datasets');
    assert.equal(listed.status, 200);
    const symbols = listed.body.symbols as { symbol: string; asset_class: string; last_candle: string; timeframes: { ranges: unknown[] }[] }[];
    assert.ok(symbols.length >= 25, `${symbols.length} instruments with data`);
    assert.ok(symbols.every((s) => s.timeframes.every((t) => t.ranges.length > 0)), 'each with its range');

    const page = await signedInPage(running.browser, running.server, user.key, '/backtest', { width: 1440, height: 900 });
    await page.locator('[data-testid=symbol] optgroup').first().waitFor({ state: 'attached' });
    const enabled = await page.locator('[data-testid=symbol] option:not([disabled]):not([value=""])').count();
    const greyed = page.locator('[data-testid=symbol] option[disabled]');
    assert.equal(enabled, symbols.length, 'every instrument with data can be picked');
    assert.equal(await greyed.count(), SYMBOLS.length - symbols.length, 'the others are greyed');
    assert.match(await greyed.first().innerText(), /— pas encore de données officielles$/);

    const classes: [symbol: string, timeframe: string, sl: number, assetClass: string][] = [['US500', 'H1', 20, 'index'], ['XAUUSD', 'H4', 100, 'metal'], ['BTC-USD', 'H1', 300, 'crypto']];
    for (const [i, [symbol, timeframe, sl, assetClass]] of classes.entries()) {
      const info = symbols.find((s) => s.symbol === symbol)!;
      assert.equal(info.asset_class, assetClass);
      const { start, end } = await fillForm(page, symbol, timeframe, sl, 'lastMonth');
      // 'Mois dernier' counts back from the last candle (11 September 2023), not from today.
      const last = new Date(info.last_candle);
      assert.deepEqual([start, end], [new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - 1, 1)).toISOString().slice(0, 10), new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), 0)).toISOString().slice(0, 10)]);
      assert.match(await page.getByTestId('data-range').innerText(), new RegExp(`Données disponibles en ${timeframe} \\(UTC\\) : du \\d+(?:er)? \\p{L}+ 2022 au 11 septembre 2023\\.`, 'u'));
      await runAndWait(page);
      const trades = await page.locator('[data-figure="trades"] strong').innerText();
      assert.ok(Number(trades.replace(/\s/g, '')) > 0, `${symbol} ${timeframe}: ${trades} trades`);
      await shot(page, `result-0${i + 1}-${symbol}-${timeframe}`, false);
    }
    await page.context().close();
  });

  it('the result view of EURUSD M15, March 2023: title, card = Global sheet, equity = sum of R, one marker per trade; 1440 and 375 px', async () => {
    const answer = await runBacktest(running.server, user.key, { strategy: 'fvg_pullback_multi', start_date: '2023-03-01', end_date: '2023-03-31', sl_pips: 20, tp1_pips: 20, tp2_pips: 40 });
    const folder = answer.folder as string;
    const download = await fetch(`${running.server.url}/api/download/${folder}.xlsx?folder=${folder}&apiKey=${user.key}`);
    assert.equal(download.status, 200);
    const workbook = await openWorkbook(new Uint8Array(await download.arrayBuffer()));
    const global = new Map(workbook.sheet('Global', { limit: 100 }).rows.map((r) => [String(r[0]), r[1]]));
    const tradesSheet = workbook.sheet('Trades', { limit: 10_000 });
    const rTp1 = tradesSheet.headers.indexOf('R TP1');
    const outcome = tradesSheet.headers.indexOf('Issue');
    const sumR = tradesSheet.rows.filter((r) => r[outcome] !== 'Ouvert').reduce((n, r) => n + (r[rTp1] as number), 0);

    // The dashboard's overlay shows the same view for a stored result.
    const page = await signedInPage(running.browser, running.server, user.key, '/dashboard', { width: 1440, height: 900 });
    await page.locator(`[data-testid=backtest-card][data-folder="${folder}"]`).getByRole('button', { name: 'Voir résultats' }).click();
    const view = page.getByRole('dialog').getByTestId('result-view');
    await view.getByTestId('result-figures').waitFor();
    // The title comes with the chart's answer, the figures with the sheets': either may arrive first.
    await view.locator('[data-testid=result-title]', { hasText: '·' }).waitFor();
    assert.equal(await view.getByTestId('result-title').innerText(), 'EURUSD · M15 · FVG pullback multi · 1er–31 mars 2023 · SL 20');
    assert.equal(await view.locator('.folder-slug').innerText(), folder, 'the folder slug stays visible under the title');
    // Every figure of the card is the Global sheet's, written in French.
    const fr = (n: number, d = 2) => new Intl.NumberFormat('fr-FR', { minimumFractionDigits: d, maximumFractionDigits: d }).format(n);
    const expected: Record<string, string> = {
      trades: fr(global.get('Trades') as number, 0),
      winrateTp1: `${fr((global.get('Winrate TP1') as number) * 100)}\u202f%`,
      winrateTp2: `${fr((global.get('Winrate TP2') as number) * 100)}\u202f%`,
      profitFactor: fr(global.get('Profit factor TP1') as number),
      expectancyR: `${(global.get('Espérance TP1 (R)') as number) > 0 ? '+' : '-'}${fr(Math.abs(global.get('Espérance TP1 (R)') as number))}\u202fR`,
      maxDrawdownR: `${fr(global.get('Drawdown max TP1 (R)') as number)}\u202fR`,
      longestLosingStreak: `${global.get('Série perdante max TP1')} trades`,
    };
    for (const [id, text] of Object.entries(expected)) assert.equal(await view.locator(`[data-figure="${id}"] strong`).innerText(), text, id);
    // Golden hours: only 14h beats the 57,14 % global rate (docs/report.md's example).
    assert.equal(await view.getByTestId('golden-hours').getAttribute('data-hours'), '14');
    // The equity curve ends at the sum of R of the Trades sheet (= Total TP1 (R)).
    const equity = view.getByTestId('equity-chart');
    await equity.locator('svg').first().waitFor();
    const last = Number(await equity.getAttribute('data-last-equity'));
    assert.ok(Math.abs(last - sumR) < 1e-9 && Math.abs(last - (global.get('Total TP1 (R)') as number)) < 1e-9, `equity ${last}, sum of R ${sumR}`);
    // The price chart: lightweight-charts loaded on demand, one entry marker per trade of the sheet.
    const chart = view.getByTestId('price-chart');
    await view.locator('[data-testid=price-chart][data-state=ready]').waitFor({ timeout: 30_000 });
    assert.equal(Number(await chart.getAttribute('data-entry-markers')), tradesSheet.total);
    assert.ok((await chart.locator('canvas').count()) > 0, 'drawn on canvas');
    // A trade clicked in the list is shown on the chart, which comes into view.
    const row = view.getByTestId('trades-table').locator('tbody tr').nth(4);
    const id = await row.getAttribute('data-trade');
    await row.click();
    await view.locator(`[data-testid=price-chart][data-selected-trade="${id}"]`).waitFor();
    await page.waitForFunction(() => {
      const el = (globalThis as unknown as { document: any }).document.querySelector('[role=dialog] [data-testid=price-chart]');
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight;
    });
    await shot(page, 'result-04-overlay-1440', false);
    await noEnglishNumbers(page, 'dashboard results overlay');
    // The sheets under the view keep one height between tabs; French numbers in every sheet.
    const modal = page.getByRole('dialog');
    const heights: number[] = [];
    for (const name of ['Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades', 'Config']) {
      await modal.locator(`[data-sheet="${name}"]`).click();
      await modal.locator(`[data-sheet="${name}"][aria-selected=true]`).waitFor();
      await modal.getByTestId('sheet-table').locator('tbody tr').first().waitFor();
      heights.push((await modal.boundingBox())?.height ?? 0);
      await noEnglishNumbers(page, `sheet ${name}`);
    }
    assert.equal(new Set(heights.map(Math.round)).size, 1, `one modal height for every tab: ${heights.join(', ')}`);
    const config = await modal.getByTestId('sheet-table').innerText();
    assert.ok(!/confirm_candle|min_wait_candles|sl_pips/.test(config), 'Config rows in French, the raw names in tooltips');
    await page.context().close();

    // 375 px: the backtest page's result view fits the screen.
    const phone = await signedInPage(running.browser, running.server, user.key, '/dashboard', { width: 375, height: 812 });
    await phone.locator(`[data-testid=backtest-card][data-folder="${folder}"]`).getByRole('button', { name: 'Voir résultats' }).click();
    const small = phone.getByRole('dialog').getByTestId('result-view');
    await small.locator('[data-testid=price-chart][data-state=ready]').waitFor({ timeout: 30_000 });
    await small.getByTestId('equity-chart').locator('svg').first().waitFor();
    const overflow = await phone.evaluate(() => {
      const doc = (globalThis as unknown as { document: any }).document;
      return [...doc.querySelectorAll('[data-testid=result-view] > *')].filter((el: any) => el.getBoundingClientRect().right > 375.5).map((el: any) => el.className || el.tagName);
    });
    assert.deepEqual(overflow, [], 'nothing of the view sticks out of a 375 px screen');
    // The equity curve's tooltip stays inside its chart (an SVG clips what runs past its edge),
    // pointed at the middle and near the right end of the curve.
    const curve = small.getByTestId('equity-chart').locator('svg').first();
    await curve.scrollIntoViewIfNeeded();
    const frame = (await curve.boundingBox())!;
    for (const at of [0.5, 0.92]) {
      await phone.mouse.move(frame.x + frame.width * at, frame.y + frame.height / 2);
      const tip = curve.locator('g[aria-label=tip] text').first();
      await tip.waitFor();
      assert.match(await tip.textContent() ?? '', /Trade n° \d+/);
      const inside = await curve.evaluate((svg: any) => {
        const getComputedStyle = (globalThis as unknown as { getComputedStyle: (el: unknown) => { fill: string } }).getComputedStyle;
        const outer = svg.getBoundingClientRect();
        const box = svg.querySelector('g[aria-label=tip]').getBoundingClientRect();
        const fill = getComputedStyle(svg.querySelector('g[aria-label=tip] path')).fill;
        return { left: box.left - outer.left, right: outer.right - box.right, width: box.width, fill };
      });
      // The theme's text is light: a white box would leave it unreadable.
      assert.notEqual(inside.fill, 'rgb(255, 255, 255)', 'the tooltip box is dark');
      assert.ok(inside.width > 0 && inside.left >= -0.5 && inside.right >= -0.5, `tooltip at ${at} of the curve inside the chart: ${JSON.stringify(inside)}`);
    }
    await shot(phone, 'result-05-overlay-375', false);
    await phone.context().close();
  });

  it('the backtest page after a run, and the comparator: no number written the English way', async () => {
    const page = await signedInPage(running.browser, running.server, user.key, '/backtest', { width: 1440, height: 900 });
    await fillForm(page, 'EURUSD', 'M15', 10, 'lastMonth');
    const answered = page.waitForResponse((r) => r.url().includes('/api/run_backtest') && r.request().method() === 'POST');
    await runAndWait(page);
    // The server's warnings (a 10-pip stop on M15 has trades that touch the SL and a TP in one
    // candle) are listed under the title, as the answer gives them (docs/web.md "Result view").
    const { warnings } = (await (await answered).json()) as { warnings: string[] };
    assert.ok(warnings.some((w) => /dans la même bougie, comptés? comme SL/.test(w)), `a same-candle warning among ${JSON.stringify(warnings)}`);
    assert.deepEqual(await page.getByTestId('result-warnings').locator('li').allInnerTexts(), warnings);
    await page.locator('[data-testid=price-chart][data-state=ready]').waitFor({ timeout: 30_000 });
    await page.getByTestId('chart-hours').locator('svg').waitFor();
    await shot(page, 'result-06-backtest-1440');
    await noEnglishNumbers(page, 'backtest page with its result');
    await page.getByTestId('open-stats').click();
    await page.getByRole('dialog').getByTestId('sheet-table').waitFor();
    await noEnglishNumbers(page, 'statistics modal');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForFunction(() => (globalThis as unknown as { document: any }).document.documentElement.scrollWidth <= 375);
    await shot(page, 'result-07-backtest-375');
    await page.context().close();

    const compare = await signedInPage(running.browser, running.server, user.key, '/comparateur', { width: 1440, height: 900 });
    const boxes = compare.getByTestId('analysis-checkbox');
    await boxes.nth(1).waitFor();
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await compare.locator('[data-testid=compare-result] svg').first().waitFor();
    for (const metric of ['session', 'winrate_tp1', 'sl_rate']) {
      await compare.getByTestId('metric-select').selectOption(metric);
      await compare.locator(`[data-testid=compare-result][data-metric="${metric}"] svg`).first().waitFor();
      await noEnglishNumbers(compare, `comparator ${metric}`);
    }
    await compare.context().close();
  });
});
