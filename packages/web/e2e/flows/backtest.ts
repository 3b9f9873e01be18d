/**
 * A signed-in trader's first backtest on official data (the seeded EURUSD M15 month): the form's
 * messages (docs/product.md §2.5, §2.8), the run with its progress (docs/product.md §2.4), the results card and charts,
 * every sheet of the statistics modal, the workbook download read back with core's reader, and
 * the credits badge dropping by the backtest's cost.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { HOURLY_TIME_ZONES, SHEET_TAB_LABELS, formatPercentFr, utcOffsetLabel, timeZoneOffsetHours } from '@bt/core/format';
import { openWorkbook } from '@bt/core/report';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { newAccount, registerVerified } from '../support/api.js';
import type { Flow } from '../support/flow.js';
import { creditsShown, signIn } from '../support/ui.js';

const RESULT_SHEETS = ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades'];
const RUN = { symbol: 'EURUSD', timeframe: 'M15', strategy: 'ob_pullback_pure', start: '2023-01-02', end: '2023-01-31', sl: '10', tp1: '10', tp2: '20' };
/** Added to every request while the run is out, so the progress has time to show (no mock: the real answer comes late). */
const RUN_LATENCY_MS = 2000;

/** Chromium's network emulation on the page (one DevTools session: conditions belong to it). */
async function networkLatency(page: Page): Promise<(latency: number) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  return async (latency) => {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: -1, uploadThroughput: -1 });
  };
}

async function progressValue(page: Page): Promise<number> {
  return Number(await page.getByTestId('run-progress').getAttribute('aria-valuenow'));
}

async function fillRun(page: Page, change: Partial<typeof RUN> = {}): Promise<void> {
  const run = { ...RUN, ...change };
  await page.getByTestId('symbol').selectOption(run.symbol);
  await page.getByTestId('timeframe').selectOption(run.timeframe);
  await page.getByTestId('start-date').fill(run.start);
  await page.getByTestId('end-date').fill(run.end);
  await page.getByTestId('sl-pips').fill(run.sl);
  await page.getByTestId('tp1-pips').fill(run.tp1);
  await page.getByTestId('tp2-pips').fill(run.tp2);
}

export function backtestFlow(flow: Flow): void {
  describe('a trader runs a backtest', () => {
    let signedIn: BrowserContextOptions['storageState'];

    before(async () => {
      // The sign-up flow's verified account (2 credits), or a fresh one when run alone.
      let trader = flow.trader;
      if (!trader) {
        trader = newAccount('Ana', 'Lima');
        await registerVerified(flow.h.url, trader);
        flow.trader = trader;
      }
      const { page, close } = await flow.h.newPage();
      await signIn(page, flow.h.url, trader.username, trader.password, '/backtest');
      signedIn = await page.context().storageState();
      await close();
    });

    it('the form shows the spec messages and a refused run costs nothing', async () => {
      const { page, close } = await flow.h.newPage({ storageState: signedIn });
      await page.goto(`${flow.h.url}/backtest`);
      await page.getByTestId('credits-badge').locator('strong').getByText('2', { exact: true }).waitFor();
      assert.equal(await page.getByTestId('run-backtest').isDisabled(), true, 'no pair and no dates: submit is disabled');
      assert.equal(await page.getByTestId('cost-fields').getByText(/spread typique/i).count(), 0, 'no word on a typical spread before a pair is chosen');
      await fillRun(page, { start: '2023-01-01', end: '2023-02-15' });
      // The spread's hint sits in its label: the three cost inputs still start on one line.
      const tops = await Promise.all(['spread-pips', 'commission-pips', 'slippage-pips'].map(async (id) => (await page.getByTestId(id).boundingBox())!.y));
      assert.ok(Math.max(...tops) - Math.min(...tops) < 1, `cost inputs' tops: ${tops.join(', ')}`);
      await page.getByTestId('run-backtest').click();
      assert.equal(await page.getByTestId('form-error').innerText(), 'Choisis une stratégie (officielle ou générée).');
      await page.getByTestId('official-strategy').selectOption(RUN.strategy);
      await page.getByTestId('run-backtest').click();
      assert.equal(await page.getByTestId('form-error').innerText(), 'Période trop longue (46 jours). Maximum : 31 jours.');
      await page.getByTestId('end-date').fill('2022-12-01');
      await page.getByTestId('run-backtest').click();
      assert.equal(await page.getByTestId('form-error').innerText(), 'La date de début doit être ≤ à la date de fin.');
      await flow.h.shot(page, '20-backtest-validation');
      // A month the dataset library does not hold: the server's 404 message, no credit taken.
      await fillRun(page, { start: '2019-01-01', end: '2019-01-31' });
      await page.getByTestId('run-backtest').click();
      // The answer names what the library holds instead, in French dates.
      await page
        .getByTestId('form-error')
        .getByText('Aucune donnée officielle pour EURUSD M15 du 1er janvier 2019 au 31 janvier 2019. Données disponibles en M15 : du 9 octobre 2022 au 2 octobre 2023.', { exact: true })
        .waitFor();
      assert.equal(await creditsShown(page), 2);
      await flow.h.shot(page, '21-backtest-no-data');
      await close();
    });

    it('watches the progress, gets the results and charts, and the badge drops by 2', async () => {
      const { page, close } = await flow.h.newPage({ storageState: signedIn });
      let sent: Record<string, unknown> | null = null;
      page.on('request', (request) => {
        if (request.url().endsWith('/api/run_backtest')) sent = request.postDataJSON();
      });
      await page.goto(`${flow.h.url}/backtest?symbol=${RUN.symbol}`);
      assert.equal(await page.getByTestId('symbol').inputValue(), RUN.symbol, 'the symbol parameter preselects the pair');
      await page.getByTestId('credits-badge').locator('strong').getByText('2', { exact: true }).waitFor();
      const before = (await creditsShown(page))!;
      await page.getByTestId('official-strategy').selectOption(RUN.strategy);
      await fillRun(page);
      await page.getByTestId('overlap-touch').uncheck();
      await page.getByTestId('overlap-percent').fill('150');
      await page.getByTestId('run-backtest').click();
      assert.equal(await page.getByTestId('form-error').innerText(), 'Profondeur min retour : un pourcentage entre 0,1 et 100, ou coche « entrée au toucher ».');
      await page.getByRole('button', { name: '25 %' }).click();
      // Trading costs: the pair's typical spread is pre-filled, visible and editable.
      assert.equal(await page.getByTestId('spread-pips').inputValue(), '1.3', 'EURUSD’s typical spread (docs/catalogue.md)');
      await page.getByTestId('cost-fields').getByText('Spread typique de la paire : 1,3 pips').waitFor();
      await page.getByTestId('spread-pips').fill('1,5');
      await page.getByTestId('slippage-pips').fill('0.5');

      const setLatency = await networkLatency(page);
      await setLatency(RUN_LATENCY_MS);
      await page.getByTestId('run-backtest').click();
      const progress = page.getByTestId('run-progress');
      await progress.waitFor();
      await page.getByTestId('run-backtest').getByText('Analyse en cours…').waitFor();
      await progress.getByText(/≈ \d+ s restantes/).waitFor();
      const first = await progressValue(page);
      let later = first;
      for (let i = 0; i < 20 && later <= first; i++) {
        await page.waitForTimeout(100);
        later = await progressValue(page);
      }
      assert.ok(later > first && later < 100, `the bar moves while the run is out (${first} % then ${later} %)`);
      await flow.h.shot(page, '22-backtest-progress', false);
      await page.getByTestId('result-card').waitFor({ timeout: 30_000 });
      await setLatency(0);

      assert.equal(sent!.symbol, RUN.symbol);
      assert.equal(sent!.strategy, RUN.strategy);
      assert.equal((sent!.params as Record<string, unknown>).min_overlap_ratio, 0.25);
      assert.deepEqual([sent!.spread_pips, sent!.slippage_pips], [1.5, 0.5]);
      assert.equal(await page.getByTestId('result-costs').innerText(), 'Coûts : spread 1,5 pips · slippage 0,5 pips');
      // The Monte Carlo of the net R sequence, in the browser: a histogram and three percentiles.
      const mc = page.getByTestId('mc-panel');
      await mc.getByTestId('mc-histogram').locator('svg').waitFor({ timeout: 15_000 });
      // The draws run in a worker, off the page's thread (useMonteCarlo.ts).
      assert.ok(page.workers().some((w) => /monte-carlo/.test(w.url())), `a Monte Carlo worker among ${page.workers().map((w) => w.url()).join(', ') || 'no worker'}`);
      assert.deepEqual(await mc.getByTestId('mc-percentiles').locator('thead th').allInnerTexts(), ['', '5e centile', '50e centile', '95e centile', 'Observé']);
      assert.equal(await mc.getByTestId('mc-percentiles').locator('tbody tr').count(), 3);
      await mc.getByTestId('mc-ruin').getByText(/^Risque de ruine : [\d,]+ % des tirages perdent 50 % du capital en risquant 1,00 % par trade\.$/).waitFor();
      const bootstrap = await mc.getByTestId('mc-percentiles').innerText();
      await mc.getByTestId('mc-method').selectOption('shuffle');
      await mc.getByTestId('mc-metric').selectOption('longestLosingStreak');
      await mc.getByTestId('mc-histogram').locator('svg').waitFor();
      for (let i = 0; i < 50 && (await mc.getByTestId('mc-percentiles').count()) === 0; i++) await page.waitForTimeout(50);
      assert.notEqual(await mc.getByTestId('mc-percentiles').innerText(), bootstrap, 'a shuffle gives other percentiles');
      await flow.h.shot(page, '23b-backtest-monte-carlo');
      await page.getByTestId('credits-badge').locator('strong').getByText(String(before - 2), { exact: true }).waitFor();
      await page.getByTestId('chart-hours').locator('svg').first().waitFor();
      assert.ok((await page.getByTestId('chart-weekdays').locator('svg').count()) >= 1);
      await flow.h.shot(page, '23-backtest-results');

      // The workbook: a plain link with the key, streamed by the server, read back with core.
      const href = await page.getByTestId('download-xlsx').getAttribute('href');
      const link = new URL(href!, flow.h.url);
      const folder = link.searchParams.get('folder')!;
      assert.ok(folder.startsWith(`${RUN.symbol}_${RUN.timeframe}_${RUN.strategy}_20230102-20230131`), folder);
      assert.equal(link.pathname, `/api/download/${folder}.xlsx`);
      assert.ok(link.searchParams.get('apiKey'), 'the download link carries the key');
      const download = page.waitForEvent('download');
      await page.getByTestId('download-xlsx').click();
      const file = await download;
      assert.equal(file.suggestedFilename(), `${folder}.xlsx`);
      const saved = join(flow.h.shotsDir, `${folder}.xlsx`);
      await file.saveAs(saved);
      const bytes = readFileSync(saved);
      assert.equal(bytes.subarray(0, 2).toString(), 'PK', 'an xlsx is a zip');
      const workbook = await openWorkbook(bytes);
      assert.deepEqual(workbook.sheetNames, RESULT_SHEETS);
      const globalRows = workbook.sheet('Global', { limit: 100 }).rows;
      const winrate = globalRows.find((row) => row[0] === 'Winrate TP1')?.[1];
      assert.equal(typeof winrate, 'number');
      assert.equal(await page.locator('[data-figure="winrateTp1"] strong').innerText(), formatPercentFr(winrate as number), 'the card shows the workbook’s TP1 win rate');
      const trades = workbook.sheet('Trades', { limit: 1 }).total;
      assert.ok(trades > 0, 'the run has trades');

      // Every sheet of the statistics modal.
      await page.getByTestId('open-stats').click();
      const dialog = page.getByRole('dialog', { name: 'Statistiques du backtest' });
      const tabs = dialog.getByRole('tablist', { name: 'Feuilles du classeur' }).getByRole('tab');
      await tabs.first().waitFor();
      assert.deepEqual(await tabs.allInnerTexts(), RESULT_SHEETS.map((s) => SHEET_TAB_LABELS[s as keyof typeof SHEET_TAB_LABELS] ?? s));
      assert.equal(await dialog.getByRole('tab', { selected: true }).innerText(), 'Résumé global', 'Global is the default tab');
      const table = dialog.getByTestId('sheet-table');
      for (const [i, name] of RESULT_SHEETS.entries()) {
        await dialog.locator(`[data-sheet="${name}"]`).click();
        await dialog.locator(`[data-sheet="${name}"][aria-selected=true]`).waitFor();
        await table.locator('tbody tr').first().waitFor();
        const rows = await table.locator('tbody tr').count();
        assert.ok(rows > 0, `${name} has rows`);
        if (name === 'Trades') assert.equal(rows, Math.min(trades, 500), 'the modal shows the trades of the workbook (500 at most)');
        await flow.h.shot(page, `24-sheet-${i + 1}-${name}`, false);
      }
      await dialog.locator('[data-sheet="Config"]').click();
      await table.locator('[data-metric="sl_pips"]').waitFor();
      assert.equal(await table.locator('[data-metric="sl_pips"] th').innerText(), 'Stop-loss (pips)', 'French labels, the raw name in the tooltip');
      assert.equal(await table.locator('[data-metric="sl_pips"] th').getAttribute('title'), 'sl_pips');
      const config = await table.innerText();
      for (const hidden of ['run_id', 'user_id', 'run_seq']) assert.ok(!config.includes(hidden), `${hidden} is hidden`);
      await dialog.locator('[data-sheet="Global"]').click();
      await table.getByText('Winrate TP1', { exact: true }).waitFor();
      assert.ok((await table.innerText()).includes(`Winrate TP1\t${formatPercentFr(winrate as number)}`), 'French percentages in the modal');
      // The hourly sheet starts in Brussels time and follows the chosen zone (January: winter offsets).
      await dialog.locator('[data-sheet="Par_Heure"]').click();
      const head = table.locator('thead');
      const january = Date.parse('2023-01-02T00:00:00Z');
      const zone = (id: string) => HOURLY_TIME_ZONES.find((z) => z.id === id)!;
      await head.getByText(`${zone('Europe/Brussels').label}, ${utcOffsetLabel(timeZoneOffsetHours('Europe/Brussels', january))}`, { exact: false }).waitFor();
      await dialog.getByTestId('tz-select').selectOption('America/New_York');
      await head.getByText(`${zone('America/New_York').label}, ${utcOffsetLabel(timeZoneOffsetHours('America/New_York', january))}`, { exact: false }).waitFor();
      await flow.h.shot(page, '25-sheet-hours-new-york', false);
      await dialog.getByRole('button', { name: 'Fermer' }).click();

      // Spent: the next run is refused before any call.
      await page.getByTestId('run-backtest').click();
      assert.equal(await page.getByTestId('form-error').innerText(), 'Il te faut au moins 2 crédits pour lancer un backtest.');
      await close();
    });
  });
}
