import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readWorkbookMeta } from '@bt/core/report';
import { startTestApp, type TestApp } from './support/app.js';
import { TEST_DIALECT, openTestDatabase, type TestDatabase } from './support/db.js';
import { readCandlesFile } from '@bt/core/node';
import { boundedCandles } from '../src/results/chart.js';
import { FIXTURES, fixture, funded, runBacktest } from './support/work.js';

let tdb: TestDatabase;
let t: TestApp;
let alice: Awaited<ReturnType<typeof funded>>;
let bob: Awaited<ReturnType<typeof funded>>;
let folder: string;

before(async () => {
  tdb = await openTestDatabase();
  // A low bar so the real month of EURUSD M15 data gives public results.
  t = await startTestApp(tdb.db, { library: true, config: { topMinTrades: 10 } });
  alice = await funded(t, 20);
  bob = await funded(t, 20);
  const run = await runBacktest(t, alice.key, { strategy: 'ob_pullback_pure' });
  assert.equal(run.status, 200, run.text);
  folder = run.body.folder;
});
after(async () => {
  await t.close();
  await tdb.drop();
});

describe(`user results (${TEST_DIALECT})`, () => {
  it('GET /api/user/backtests lists the user’s own runs with the dashboard fields', async () => {
    const mine = await t.request('GET', '/api/user/backtests', { key: alice.key });
    assert.equal(mine.status, 200);
    assert.equal(mine.body.total, 1);
    const [item] = mine.body.items;
    assert.equal(item.folder, folder);
    assert.deepEqual([item.pair, item.tf, item.strategy, item.display_name, item.period], ['EURUSD', 'M15', 'ob_pullback_pure', 'OB pullback pur', '2023-01-01 → 2023-01-31']);
    assert.equal(item.xlsx_filename, `${folder}.xlsx`);
    assert.equal(item.winrate, item.winrate_tp1);
    assert.equal(item.trades, item.total_trades);
    assert.deepEqual([item.year, item.month], [2023, 1]);
    const theirs = await t.request('GET', '/api/user/backtests', { key: bob.key });
    assert.deepEqual(theirs.body, { items: [], total: 0 });
  });

  it('GET /api/user/backtests/xlsx/meta and /sheet read the workbook (paging, header, unknown sheet)', async () => {
    const meta = await t.request('GET', `/api/user/backtests/xlsx/meta?folder=${folder}`, { key: alice.key });
    assert.equal(meta.status, 200);
    assert.deepEqual(meta.body.sheet_names, ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades']);
    assert.deepEqual(meta.body.columns.Config, ['metric', 'value']);
    const page = await t.request('GET', `/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=Par_Heure&offset=20&limit=10`, { key: alice.key });
    assert.equal(page.status, 200);
    assert.deepEqual([page.body.total, page.body.offset, page.body.rows.length], [24, 20, 4]);
    assert.equal(page.body.headers[0], 'Heure (UTC)');
    assert.equal(page.body.rows[0][0], 20);
    const raw = await t.request('GET', `/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=config&limit=2&use_header=false`, { key: alice.key });
    assert.deepEqual(raw.body.headers, ['A', 'B']);
    assert.deepEqual(raw.body.rows[0], ['metric', 'value']);
    const config = await t.request('GET', `/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=Config&limit=500`, { key: alice.key });
    assert.ok(config.body.rows.some((r: unknown[]) => r[0] === 'user_id' && r[1] === alice.id), 'the owner sees every Config row; the modal hides run_id/user_id/run_seq');

    const cases: [string, number, string][] = [
      ['/api/user/backtests/xlsx/meta', 400, 'Aucune donnée XLSX associée à cette stratégie (folder manquant).'],
      ['/api/user/backtests/xlsx/meta?folder=', 400, 'Aucune donnée XLSX associée à cette stratégie (folder manquant).'],
      [`/api/user/backtests/xlsx/sheet?folder=${folder}`, 400, 'Feuille manquante (sheet).'],
      [`/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=Nope`, 404, 'Feuille inconnue : « Nope » (feuilles : Config, Global, Sessions, Par_Heure, Jour_Semaine, TP2_Global, Trades).'],
      [`/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=Global&limit=0`, 400, 'Pagination invalide : offset ≥ 0, limit de 1 à 10000, use_header true ou false.'],
      [`/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=Global&offset=-1`, 400, 'Pagination invalide : offset ≥ 0, limit de 1 à 10000, use_header true ou false.'],
      ['/api/user/backtests/xlsx/meta?folder=EURUSD_M15_nothing_20230101-20230131_sl10', 404, 'Dossier inconnu'],
    ];
    for (const [path, status, detail] of cases) {
      const res = await t.request('GET', path, { key: alice.key });
      assert.deepEqual([res.status, res.body.detail], [status, detail], path);
    }
  });

  it('GET /api/download/{file}?folder&apiKey streams the owner’s workbook', async () => {
    const res = await t.request('GET', `/api/download/${folder}.xlsx?folder=${folder}&apiKey=${alice.key}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="${folder}.xlsx"`);
    const download = await fetch(`${t.url}/api/download/${folder}.xlsx?folder=${folder}&token=${alice.key}`);
    const meta = await readWorkbookMeta(new Uint8Array(await download.arrayBuffer()));
    assert.equal(meta.sheets.length, 7);
    const wrongFile = await t.request('GET', `/api/download/other.xlsx?folder=${folder}&apiKey=${alice.key}`);
    assert.deepEqual([wrongFile.status, wrongFile.body.detail], [404, 'Dossier inconnu']);
    const noKey = await t.request('GET', `/api/download/${folder}.xlsx?folder=${folder}`);
    assert.equal(noKey.status, 401);
  });

  it('user B cannot list, read, download or delete user A’s result (404, as for a folder that does not exist)', async () => {
    const calls: [string, string][] = [
      ['GET', `/api/user/backtests/xlsx/meta?folder=${folder}`],
      ['GET', `/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=Config`],
      ['GET', `/api/download/${folder}.xlsx?folder=${folder}`],
      ['DELETE', `/api/user/backtests/delete/${folder}`],
    ];
    for (const [method, path] of calls) {
      const res = await t.request(method, path, { key: bob.key });
      assert.deepEqual([res.status, res.body.detail], [404, 'Dossier inconnu'], `${method} ${path}`);
    }
    const compare = await t.request('POST', '/api/compare/data', { key: bob.key, json: { analysis_ids: [(await t.request('GET', '/api/user/backtests', { key: alice.key })).body.items[0].id], metric: 'hour' } });
    assert.deepEqual([compare.status, compare.body.detail], [404, 'Analyse introuvable.']);
    assert.equal((await t.request('GET', '/api/list_output_backtest_files', { key: bob.key })).body.files.length, 0);
    assert.equal((await t.request('GET', `/api/user/backtests/xlsx/meta?folder=${folder}`, { key: alice.key })).status, 200, 'still there for its owner');
    assert.deepEqual([(await t.request('GET', `/api/user/backtests/chart?folder=${folder}`, { key: bob.key })).status], [404]);
  });

  it('GET /api/user/backtests/chart: the period’s candles from the library and every trade of the Trades sheet', async () => {
    const res = await t.request('GET', `/api/user/backtests/chart?folder=${folder}`, { key: alice.key });
    assert.equal(res.status, 200, res.text);
    const chart = res.body;
    assert.deepEqual([chart.symbol, chart.timeframe, chart.chart_timeframe, chart.pip_size, chart.start_date, chart.end_date], ['EURUSD', 'M15', 'M15', 0.0001, '2023-01-01', '2023-01-31']);
    const library = await t.app.services.datasets.load('EURUSD', 'M15', Date.UTC(2023, 0, 1), Date.UTC(2023, 1, 1) - 1, 0);
    assert.deepEqual(chart.candles.time, [...library!.candles.time], 'exactly the period, no warm-up');
    assert.deepEqual(chart.candles.close, [...library!.candles.close]);
    const sheet = await t.request('GET', `/api/user/backtests/xlsx/sheet?folder=${folder}&sheet=Trades&limit=10000`, { key: alice.key });
    assert.equal(chart.trades.length, sheet.body.total);
    const h = (name: string) => sheet.body.headers.indexOf(name);
    chart.trades.forEach((trade: Record<string, unknown>, i: number) => {
      const row = sheet.body.rows[i];
      assert.equal(trade.entry_time, Date.parse(row[h('Entrée (UTC)')]));
      assert.deepEqual([trade.entry_price, trade.sl, trade.tp1, trade.tp2, trade.r_tp1], [row[h('Prix entrée')], row[h('SL')], row[h('TP1')], row[h('TP2')], row[h('R TP1')]]);
      assert.equal(trade.side, row[h('Sens')] === 'Achat' ? 'buy' : 'sell');
      assert.equal({ TP2: 'tp2', TP1: 'tp1', SL: 'sl', Ouvert: 'open' }[row[h('Issue')] as string], trade.outcome);
      assert.ok(chart.candles.time.includes(trade.entry_time), `trade ${i + 1} enters on a candle of the chart`);
    });
  });

  it('GET /api/user/backtests/chart guards: no key, another user, another letter case, bad folders', async () => {
    const cases: [string, { key?: string }, number, string][] = [
      [`/api/user/backtests/chart?folder=${folder}`, {}, 401, 'Non authentifié'],
      [`/api/user/backtests/chart?folder=${folder}`, { key: 'not-a-key' }, 401, 'Clé API invalide ou expirée.'],
      [`/api/user/backtests/chart?folder=${folder}`, { key: bob.key }, 404, 'Dossier inconnu'],
      // Routes are case-sensitive: another letter case is no route at all, with or without a key.
      [`/api/user/backtests/CHART?folder=${folder}`, {}, 404, 'Ressource introuvable.'],
      [`/api/USER/backtests/chart?folder=${folder}`, { key: alice.key }, 404, 'Ressource introuvable.'],
      ['/api/user/backtests/chart', { key: alice.key }, 400, 'Aucune donnée XLSX associée à cette stratégie (folder manquant).'],
      ['/api/user/backtests/chart?folder=', { key: alice.key }, 400, 'Aucune donnée XLSX associée à cette stratégie (folder manquant).'],
      ['/api/user/backtests/chart?folder=..%2F..%2Fetc', { key: alice.key }, 404, 'Dossier inconnu'],
      [`/api/user/backtests/chart?folder=${'A'.repeat(3000)}`, { key: alice.key }, 404, 'Dossier inconnu'],
      [`/api/user/backtests/chart?folder=${folder}&folder=x`, { key: alice.key }, 400, 'Champ « folder » : une seule valeur attendue (pas une liste ni un objet).'],
    ];
    for (const [path, options, status, detail] of cases) {
      const res = await t.request('GET', path, options);
      assert.deepEqual([res.status, res.body?.detail], [status, detail], path);
      assert.equal(res.body?.candles, undefined, `${path}: no data`);
    }
  });

  it('an upload keeps its period’s candles for the chart; the chart never shows more than 20 000 candles', async () => {
    const form = new FormData();
    const fields = { strategy: 'fvg_pullback_multi', symbol: 'EURUSD', timeframe: 'H1', sl_pips: '10', tp1_pips: '10', tp2_pips: '20', start_date: '2017-05-01', end_date: '2017-05-31' };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('csv_file', new Blob([fixture('official/EURUSD_H1_2017-2018.csv')]), 'eurusd.csv');
    const run = await t.request('POST', '/api/upload_csv_and_backtest', { key: alice.key, form });
    assert.equal(run.status, 200, run.text);
    const chart = (await t.request('GET', `/api/user/backtests/chart?folder=${run.body.folder}`, { key: alice.key })).body;
    const file = (await readCandlesFile(FIXTURES + 'official/EURUSD_H1_2017-2018.csv')).candles;
    const may = [...file.time.keys()].filter((i) => file.time[i] >= Date.UTC(2017, 4, 1) && file.time[i] < Date.UTC(2017, 5, 1));
    assert.deepEqual(chart.candles.time, may.map((i) => file.time[i]));
    assert.deepEqual(chart.candles.high, may.map((i) => file.high[i]));
    assert.equal(chart.source, 'custom');
    assert.ok(chart.trades.length > 0);
    // A long period is drawn at a higher timeframe instead of sending every candle.
    const bounded = boundedCandles(file, 'H1', 2000);
    assert.deepEqual([bounded.timeframe, bounded.candles.length <= 2000], ['H4', true]);
    assert.equal(boundedCandles(file, 'H1', 10_000).candles, file, 'a period that fits is sent as it is');
  });
});

describe(`public top strategies (${TEST_DIALECT})`, () => {
  it('GET /api/top-strategy: official results on official data with enough trades, best TP1 win rate first, anonymised', async () => {
    const more = await runBacktest(t, bob.key, { strategy: 'englobante_entry', timeframe: 'M15' });
    assert.equal(more.status, 200);
    const few = await runBacktest(t, bob.key, { strategy: 'ob_pullback_gap_rsi', timeframe: 'H4' });
    assert.equal(few.status, 200);
    const res = await t.request('GET', '/api/top-strategy');
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body));
    const folders = res.body.map((i: { folder: string }) => i.folder);
    assert.ok(folders.includes(folder));
    assert.ok(!folders.includes(few.body.folder), `${few.body.summary.trades} trades is below the minimum`);
    for (let i = 1; i < res.body.length; i++) assert.ok(res.body[i - 1].winrate_tp1 >= res.body[i].winrate_tp1, 'best first');
    for (const item of res.body) {
      assert.ok(item.resolved >= 10);
      assert.deepEqual(Object.keys(item).sort(), ['folder', 'from_date', 'pair', 'period', 'resolved', 'sl_mode', 'strategy', 'strategy_label', 'strategy_name', 'symbol', 'timeframe', 'to_date', 'trades', 'winrate_tp1', 'winrate_tp2'].sort());
      assert.ok(!/user|run_id|run_seq/.test(JSON.stringify(item)));
    }
  });

  it('GET /api/public/xlsx/meta and /sheet serve only exposed folders, without Trades and without run_id/user_id/run_seq', async () => {
    const meta = await t.request('GET', `/api/public/xlsx/meta?folder=${folder}`);
    assert.equal(meta.status, 200);
    assert.deepEqual(meta.body.sheet_names, ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global']);
    const config = await t.request('GET', `/api/public/xlsx/sheet?folder=${folder}&sheet=Config&limit=500`);
    assert.equal(config.status, 200);
    const metrics = config.body.rows.map((r: unknown[]) => r[0]);
    assert.ok(metrics.includes('strategy') && metrics.includes('sl_pips'));
    for (const hidden of ['run_id', 'user_id', 'run_seq']) assert.ok(!metrics.includes(hidden), hidden);
    assert.ok(!config.text.includes(String(alice.key)));
    assert.equal(config.body.total, metrics.length);
    assert.equal(meta.body.sheets.find((s: { name: string }) => s.name === 'Config').rows, metrics.length);
    const global = await t.request('GET', `/api/public/xlsx/sheet?folder=${folder}&sheet=Global`);
    assert.equal(global.status, 200);
    assert.equal(global.body.rows[0][0], 'Trades');
    const trades = await t.request('GET', `/api/public/xlsx/sheet?folder=${folder}&sheet=Trades`);
    assert.equal(trades.status, 404);
    // A user's own result that the list does not show (too few trades) is not public.
    const hidden = (await t.request('GET', '/api/user/backtests', { key: bob.key })).body.items.find((i: { trades: number }) => i.trades < 10);
    const refused = await t.request('GET', `/api/public/xlsx/meta?folder=${hidden.folder}`);
    assert.deepEqual([refused.status, refused.body.detail], [404, 'Dossier inconnu']);
    const missing = await t.request('GET', '/api/public/xlsx/meta');
    assert.deepEqual([missing.status, missing.body.detail], [400, 'Aucune donnée XLSX associée à cette stratégie (folder manquant).']);
  });

  it('DELETE /api/user/backtests/delete/{folder} removes the run, its workbook and its public exposure', async () => {
    const before = (await t.request('GET', '/api/user/backtests', { key: alice.key })).body.total;
    const res = await t.request('DELETE', `/api/user/backtests/delete/${folder}`, { key: alice.key });
    assert.deepEqual([res.status, res.body.message], [200, 'Backtest supprimé.']);
    assert.equal(await t.app.deps.storage.exists(`results/${alice.id}/${folder}`), false);
    assert.equal((await t.request('GET', '/api/user/backtests', { key: alice.key })).body.total, before - 1);
    assert.equal((await t.request('GET', `/api/public/xlsx/meta?folder=${folder}`)).status, 404);
    const again = await t.request('DELETE', `/api/user/backtests/delete/${folder}`, { key: alice.key });
    assert.deepEqual([again.status, again.body.detail], [404, 'Dossier inconnu']);
  });
});
