// Real candles -> engine -> statistics -> workbook -> readers: the workbook's summary sheets must
// agree with what a user would recount from its own Trades sheet (a pivot table in Excel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runBacktest, type BacktestResult } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';
import { readWorkbookSheet, type SheetCell } from '@bt/core/report';
import { parseResultFolderName } from '@bt/core/report';
import { usesInternalStop, visibleMetricRows } from '@bt/core/format';
import { wilsonInterval } from '@bt/core/stats';

const fixtures = join(import.meta.dirname, '../../../fixtures');

type Row = Record<string, SheetCell>;

async function sheetObjects(bytes: Uint8Array, sheet: string): Promise<Row[]> {
  const page = await readWorkbookSheet(bytes, sheet, { limit: 10_000 });
  assert.equal(page.rows.length, page.total, `${sheet} fits one page`);
  return page.rows.map((row) => Object.fromEntries(page.headers.map((h, i) => [h, row[i]])));
}

/** The summary figures of one bucket, recounted from Trades sheet rows. */
function recount(rows: readonly Row[]) {
  const tp1 = rows.filter((r) => r['Résultat TP1'] !== 'Ouvert');
  const tp1Wins = rows.filter((r) => r['Résultat TP1'] === 'Gagné').length;
  const tp2 = rows.filter((r) => r['Résultat TP2'] !== 'Ouvert');
  const tp2Wins = rows.filter((r) => r['Résultat TP2'] === 'Gagné').length;
  const ci = (k: number, n: number, end: 0 | 1) => (n ? wilsonInterval(k, n)![end] : null);
  return {
    Trades: rows.length,
    Résolus: tp1.length,
    'TP1 atteints': tp1Wins,
    'TP2 atteints': tp2Wins,
    SL: rows.filter((r) => r['Issue'] === 'SL').length,
    Ouverts: rows.filter((r) => r['Issue'] === 'Ouvert').length,
    Ambigus: rows.filter((r) => r['Ambigu'] === 'Oui').length,
    'Winrate TP1': tp1.length ? tp1Wins / tp1.length : null,
    'IC95 bas TP1': ci(tp1Wins, tp1.length, 0),
    'IC95 haut TP1': ci(tp1Wins, tp1.length, 1),
    'Winrate TP2': tp2.length ? tp2Wins / tp2.length : null,
    'IC95 bas TP2': ci(tp2Wins, tp2.length, 0),
    'IC95 haut TP2': ci(tp2Wins, tp2.length, 1),
    'Espérance TP1 (R)': tp1.length ? tp1.reduce((s, r) => s + (r['R TP1'] as number), 0) / tp1.length : null,
  };
}

function assertClose(actual: Row, expected: Record<string, number | null>, label: string): void {
  for (const [key, value] of Object.entries(expected)) {
    const got = actual[key];
    if (value === null || got === null) assert.equal(got, value, `${label} ${key}`);
    else assert.ok(Math.abs((got as number) - value) < 1e-9, `${label} ${key}: ${got} vs ${value}`);
  }
}

async function checkRun(r: BacktestResult): Promise<void> {
  const bytes = r.workbook!;
  const trades = await sheetObjects(bytes, 'Trades');
  assert.ok(trades.length >= 20, `${r.folder}: ${trades.length} trades`);
  // The Trades sheet is the engine's trade list.
  trades.forEach((row, i) => {
    const t = r.trades[i];
    assert.equal(row['N°'], t.id);
    assert.equal(row['Entrée (UTC)'], new Date(t.entryTime).toISOString());
    assert.equal(row['Sens'], t.side === 'buy' ? 'Achat' : 'Vente');
    assert.equal(row['Prix entrée'], t.entryPrice);
    assert.equal(row['SL'], t.sl);
    assert.equal(row['R TP2'], t.rTp2);
    assert.equal(row['Heure (UTC)'], new Date(t.entryTime).getUTCHours());
  });
  const groups = <K extends string | number>(key: (row: Row) => K) => {
    const map = new Map<K, Row[]>();
    for (const row of trades) map.set(key(row), [...(map.get(key(row)) ?? []), row]);
    return map;
  };
  const byHour = groups((row) => row['Heure (UTC)'] as number);
  for (const row of await sheetObjects(bytes, 'Par_Heure')) assertClose(row, recount(byHour.get(row['Heure (UTC)'] as number) ?? []), `hour ${row['Heure (UTC)']}`);
  const byDay = groups((row) => row['Jour'] as string);
  for (const row of await sheetObjects(bytes, 'Jour_Semaine')) assertClose(row, recount(byDay.get(row['Jour'] as string) ?? []), `day ${row['Jour']}`);
  const bySession = groups((row) => row['Session'] as string);
  for (const row of await sheetObjects(bytes, 'Sessions')) assertClose(row, recount(bySession.get(row['Session'] as string) ?? []), `session ${row['Session']}`);

  const global = Object.fromEntries((await sheetObjects(bytes, 'Global')).map((row) => [row['Indicateur'] as string, row['Valeur']]));
  assertClose(global, recount(trades), 'global');
  assert.equal(global['Premier trade (UTC)'], trades[0]['Entrée (UTC)']);
  assert.equal(global['Dernier trade (UTC)'], trades[trades.length - 1]['Entrée (UTC)']);
  const tp2 = Object.fromEntries((await sheetObjects(bytes, 'TP2_Global')).map((row) => [row['Indicateur'] as string, row['Valeur']]));
  assert.equal(tp2['dont TP1 puis SL'], trades.filter((t) => t['Résultat TP1'] === 'Gagné' && t['Résultat TP2'] === 'Perdu').length);
  assert.equal(tp2['Winrate TP2'], global['Winrate TP2']);

  // Golden hours in the JSON come from the same hourly figures.
  for (const h of r.golden_hours.golden_hours) {
    assert.ok(h.trades >= r.golden_hours.min_trades);
    assert.equal(h.TP1, recount(byHour.get(h.hour)!)['Winrate TP1']);
  }

  // Folder name and hidden rows.
  const parsed = parseResultFolderName(r.folder);
  assert.equal(parsed.strategy, r.strategy);
  assert.equal(parsed.timeframe, r.timeframe);
  assert.equal(parsed.slMode, r.slMode);
  const config = (await readWorkbookSheet(bytes, 'Config', { limit: 1000 })).rows;
  assert.equal(usesInternalStop({ config }), r.slMode === 'internal');
  const shown = visibleMetricRows(config, { folder: r.folder, config }).map((row) => row[0]);
  for (const hidden of ['run_id', 'user_id', 'run_seq']) assert.ok(!shown.includes(hidden), hidden);
  assert.equal(shown.includes('sl_pips'), r.slMode === 'external');
  assert.equal(shown.includes('tp1_pips'), r.slMode === 'external');
}

test('EURUSD H1 2017-2018, order-block pullback with internal stop (_sl0)', async () => {
  const { candles } = await readCandlesFile(join(fixtures, 'official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' });
  const r = await runBacktest(candles, { strategy: 'ob_pullback_pure', symbol: 'EURUSD', slMode: 'internal', run: { runId: 'x1', userId: 3, runSeq: 1 } }, { workbook: true, createdAt: 0 });
  assert.match(r.folder, /^EURUSD_H1_ob_pullback_pure_20170419-20180207_sl0$/);
  await checkRun(r);
});

test('ETH/BTC M5 (freqtrade data), FVG pullback with an external stop', async () => {
  const { candles } = await readCandlesFile(join(fixtures, 'freqtrade/ETH_BTC-5m.json'), { symbol: 'ETH-BTC' });
  const r = await runBacktest(candles, { strategy: 'fvg_pullback_multi', symbol: 'ETH-BTC', pipSize: 0.00001, slPips: 40, tp1Pips: 40, tp2Pips: 80 }, { workbook: true, createdAt: 0 });
  assert.match(r.folder, /^ETH-BTC_M5_fvg_pullback_multi_20180110-20180130_sl40$/);
  await checkRun(r);
});
