// Results' workbooks are parsed on an engine thread, never on the event loop (docs/server.md
// "Backtests, results and credits"; src/results/workbook-text.ts): the pages the API serves from
// that text are the pages core's own reader gives, and the API's thread never loads exceljs.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { runBacktest as runCoreBacktest } from '@bt/core';
import { openWorkbook, WorkbookSheetNotFoundError, type SheetPageOptions } from '@bt/core/report';
import { readCandlesFile } from '@bt/core/node';
import { EnginePool } from '../src/jobs/pool.js';
import { textWorkbookReader } from '../src/results/workbook-text.js';
import { startTestApp, type TestApp } from './support/app.js';
import { SQLITE_PASS_ONLY, TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { FIXTURES, funded, runBacktest } from './support/work.js';

const exceljsLoadedHere = () => Object.keys(createRequire(import.meta.url).cache).some((path) => /[\\/]exceljs[\\/]/.test(path));

// First: the pool's test below parses a workbook on this thread, to compare.
describe(`results served without parsing a workbook on the API's thread (${TEST_DIALECT})`, () => {
  let tdb: TestDatabase;
  let t: TestApp;

  before(async () => {
    tdb = await openTestDatabase();
    t = await startTestApp(tdb.db, { library: true, config: { topMinTrades: 10 } });
  });
  after(async () => {
    await t.close();
    await tdb.drop();
  });

  it('meta, every sheet, the chart and the public pages of a result', async () => {
    const trader = await funded(t, 20);
    const run = await runBacktest(t, trader.key, { strategy: 'fvg_impulsive' });
    assert.equal(run.status, 200, run.text);
    const folder = run.body.folder;
    const meta = await t.request('GET', `/api/user/backtests/xlsx/meta?folder=${folder}`, { key: trader.key });
    assert.equal(meta.status, 200);
    for (const sheet of meta.body.sheet_names) {
      const page = await t.request('GET', `/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=${sheet}&limit=50`, { key: trader.key });
      assert.equal(page.status, 200, `${sheet}: ${page.text}`);
      assert.equal(page.body.total, meta.body.sheets.find((s: { name: string }) => s.name === sheet).rows);
    }
    const chart = await t.request('GET', `/api/user/backtests/chart?folder=${folder}`, { key: trader.key });
    assert.equal(chart.status, 200);
    assert.equal(chart.body.trades.length, run.body.summary.trades);
    const publicMeta = await t.request('GET', `/api/public/xlsx/meta?folder=${folder}`);
    assert.equal(publicMeta.status, 200);
    assert.equal(exceljsLoadedHere(), false, 'exceljs never loaded on the API thread');
  });
});

describe('EnginePool: the workbook task', { skip: SQLITE_PASS_ONLY }, () => {
  const pool = new EnginePool(1);
  after(() => pool.close());

  it("gives, from text made on a thread, every page and the meta core's reader gives", async () => {
    const { candles } = await readCandlesFile(`${FIXTURES}official/EURUSD_H1_2017-2018.csv`, { symbol: 'EURUSD' });
    const run = await runCoreBacktest(candles, { strategy: 'fvg_pullback_multi', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, tp2Pips: 40 }, { workbook: true, createdAt: 0 });
    const bytes = run.workbook!;
    const before = Buffer.from(bytes);
    const fromThread = textWorkbookReader(await pool.workbook(bytes));
    assert.equal(Buffer.compare(bytes, before), 0, "the caller's bytes are untouched (a copy crossed)");
    const inProcess = await openWorkbook(bytes);
    assert.deepEqual(fromThread.meta(), inProcess.meta());
    assert.ok(inProcess.meta().sheets.find((s) => s.name === 'Trades')!.rows > 100, 'a result with trades');
    const pages: SheetPageOptions[] = [{}, { limit: 10_000 }, { offset: 3, limit: 7 }, { offset: 100_000 }, { useHeader: false, limit: 5 }, { useHeader: 'false', offset: 1, limit: 2 }];
    for (const name of [...inProcess.sheetNames, 'trades', 'CONFIG']) {
      for (const options of pages) assert.deepEqual(fromThread.sheet(name, options), inProcess.sheet(name, options), `${name} ${JSON.stringify(options)}`);
    }
    assert.throws(() => fromThread.sheet('Inconnue'), (err: unknown) => err instanceof WorkbookSheetNotFoundError && err.sheets.join() === inProcess.sheetNames.join());
    assert.throws(() => fromThread.sheet('Trades', { limit: 0 }), /invalid limit: 0/);
    await assert.rejects(pool.workbook(new TextEncoder().encode('pas un classeur')), /invalid workbook/);
  });
});
