// Trading costs through runBacktest (docs/engine.md §13): zero costs change nothing, the data's
// Spread column and a spread by hour reach each trade, the Config rows state every cost, and
// ambiguous candles are resolved on the prices the trade exits at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { STRATEGIES, readWorkbookSheet, runBacktest, type Candles } from '@bt/core';
import { normalizeCosts, runCosts } from '@bt/core/costs';
import { priceRounding, simulateTrades, signalEntries, type Entries } from '@bt/core/simulate';
import type { Setups } from '@bt/core/patterns';
import { readCandlesFile } from '@bt/core/node';
import { bars, T0, HOUR, type Bar } from './engine-fixtures.js';

const fixtures = join(import.meta.dirname, '../../../fixtures');
let h1: Candles | undefined;
let m15: Candles | undefined;
const eurusdH1 = async () => (h1 ??= (await readCandlesFile(join(fixtures, 'official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' })).candles);
const smcM15 = async () => (m15 ??= (await readCandlesFile(join(fixtures, 'smc/EURUSD_15M.csv'), { symbol: 'EURUSD', utcOffset: '+02:00' })).candles);

test('zero costs, given explicitly, leave every strategy’s trades exactly as without costs', async () => {
  const candles = await eurusdH1();
  const zero = { spreadPips: 0, spreadByHour: Array(24).fill(0), commissionPips: 0, slippagePips: 0 };
  for (const s of STRATEGIES) {
    const request = { strategy: s.key, symbol: 'EURUSD', slPips: 20, tp1Pips: 20, tp2Pips: 40 } as const;
    const plain = await runBacktest(candles, request);
    const withZero = await runBacktest(candles, { ...request, costs: zero });
    assert.deepEqual(withZero.trades, plain.trades, s.key);
    assert.deepEqual(withZero.statistics, plain.statistics, s.key);
  }
});

test('a commission alone moves only R: the same trades, each target’s R less commission / risk', async () => {
  const candles = await eurusdH1();
  for (const key of ['ob_pullback_pure', 'fvg_impulsive']) {
    const request = { strategy: key, symbol: 'EURUSD', slMode: 'internal' } as const;
    const plain = await runBacktest(candles, request);
    const paid = await runBacktest(candles, { ...request, costs: { commissionPips: 1.5 } });
    assert.equal(paid.trades.length, plain.trades.length);
    paid.trades.forEach((t, i) => {
      const p = plain.trades[i];
      assert.deepEqual({ ...t, rTp1: 0, rTp2: 0, costPips: 0 }, { ...p, rTp1: 0, rTp2: 0, costPips: 0 }, `${key} trade ${t.id}`);
      const cost = Math.abs(t.orderPrice - t.sl) > 0 ? (1.5 * 0.0001) / Math.abs(t.orderPrice - t.sl) : 0;
      for (const [net, gross] of [[t.rTp1, p.rTp1], [t.rTp2, p.rTp2]]) {
        assert.ok(Math.abs(net - (gross === 0 ? 0 : gross - cost)) < 2e-9, `${key} trade ${t.id}: ${net} vs ${gross} - ${cost}`);
      }
    });
  }
});

test('the data’s Spread column (MetaTrader points, a tenth of a pip each) is the spread of each trade’s entry candle', async () => {
  const candles = await smcM15();
  const spread = candles.extra.Spread;
  assert.ok(spread, 'the smc file carries a Spread column');
  const r = await runBacktest(candles, { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 10, tp1Pips: 10, costs: { spreadFromData: true } });
  assert.ok(r.trades.length > 500);
  for (const t of r.trades) assert.equal(t.spreadPips, Math.round((spread[t.entryIndex] / 10) * 1e6) / 1e6, `trade ${t.id}`);
  // A buy's order price is the ask open: the bid open + the candle's spread.
  const buy = r.trades.find((t) => t.side === 'buy')!;
  assert.equal(buy.orderPrice, Math.round((candles.open[buy.entryIndex] + spread[buy.entryIndex] * 0.00001) * 1e8) / 1e8);
  const sell = r.trades.find((t) => t.side === 'sell')!;
  assert.equal(sell.orderPrice, candles.open[sell.entryIndex]);
  assert.equal(r.costs.spreadDataCandles, candles.length);
  assert.equal(r.costs.spreadPointSizeUsed, 0.00001);
  const config = new Map(r.config.map((c) => [c.metric, c.value]));
  assert.equal(config.get('spread_from_data'), true);
  assert.equal(config.get('spread_point_size'), 0.00001);
  assert.equal(config.get('spread_data_candles'), candles.length);
  assert.match(String(config.get('price_rule')), /^Bougies au bid ; achat au ask/);
  assert.deepEqual(r.warnings.filter((w) => w.startsWith('spread_from_data')), [], 'five-decimal prices agree with the default point');
  // The spread costs this strategy on this file: fewer TP1 wins than without it.
  const plain = await runBacktest(candles, { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 10, tp1Pips: 10 });
  assert.ok(r.statistics.global.tp1.winrate! < plain.statistics.global.tp1.winrate!, `${r.statistics.global.tp1.winrate} < ${plain.statistics.global.tp1.winrate}`);
});

test('a spread by UTC hour, and the warnings when the Spread column is asked for but missing', async () => {
  const candles = await eurusdH1();
  const byHour = Array.from({ length: 24 }, (_, h) => h / 10);
  const r = await runBacktest(candles, { strategy: 'englobante_entry', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, costs: { spreadByHour: byHour, spreadFromData: true, commissionPips: 0.4, slippagePips: 0.2 } });
  for (const t of r.trades) {
    assert.equal(t.spreadPips, t.hour / 10, `trade ${t.id}`);
    assert.equal(t.costPips, 0.6, 'commission 0.4 + entry slippage 0.2');
    assert.equal(t.stopCostPips, 0.2);
  }
  assert.ok(r.warnings.some((w) => w.startsWith('spread_from_data: the data has no Spread column')), r.warnings.join('\n'));
  const config = new Map(r.config.map((c) => [c.metric, c.value]));
  assert.equal(config.get('spread_by_hour_pips'), byHour.join(' '));
  assert.equal(config.get('commission_pips'), 0.4);
  assert.equal(config.get('slippage_pips'), 0.2);
  assert.equal(r.costs.commissionPips, 0.4);
  const plain = await runBacktest(candles, { strategy: 'englobante_entry', symbol: 'EURUSD', slPips: 20, tp1Pips: 20 });
  const plainConfig = new Map(plain.config.map((c) => [c.metric, c.value]));
  assert.deepEqual([plainConfig.get('spread_pips'), plainConfig.get('commission_pips'), plainConfig.get('slippage_pips'), plainConfig.has('price_rule')], [0, 0, 0, false]);
});

test('a cost the request gets wrong is refused before any work', async () => {
  const candles = await eurusdH1();
  await assert.rejects(runBacktest(candles, { strategy: 'englobante_entry', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, costs: { spreadPips: -2 } }), /^CostError: invalid spread_pips: -2 \(expected a number of pips from 0 to 1,000\)$/);
  await assert.rejects(
    runBacktest(candles, { strategy: 'englobante_entry', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, costs: { commissionPerLot: 7, accountCurrency: 'JPY' } }),
    /invalid account_currency: "JPY" \(a commission in JPY on EURUSD needs a JPY exchange rate/,
  );
});

test('an ambiguous sell is resolved on the ask of the smaller candles', () => {
  // Sell at the bid open 100 (signal at candle 0), SL 101, TP1 99, TP2 98, spread 0.2.
  const rows: Bar[] = [[100, 100.2, 99.8, 100], [100, 100.9, 98.7, 99]];
  // Hour 1 as four 15-minute candles: TP1 on the second (ask low 98.9), then the ask high 101.1 on the third.
  const quarters: Bar[] = [[100, 100.3, 99.5, 99.6], [99.6, 99.7, 98.7, 98.9], [98.9, 100.9, 98.9, 100.5], [100.5, 100.6, 98.9, 99]];
  const series = bars(rows);
  const ltfSeries = bars(quarters, { start: T0 + HOUR, stepMs: HOUR / 4 });
  const setups: Setups = { kind: 'custom', count: 1, side: Int8Array.of(-1), top: Float64Array.of(0), bottom: Float64Array.of(0), stop: Float64Array.of(0), formedAt: Int32Array.of(0), confirmedAt: Int32Array.of(0) };
  const rules = { slMode: 'external', slPips: 10, tp1Pips: 10, tp2Pips: 20, pipSize: 0.1 } as const;
  const scale = priceRounding(0.1);
  const run = (spreadPips: number) => {
    const settings = normalizeCosts({ spreadPips }, 'TEST');
    const costs = runCosts(series, settings, 0.1, scale);
    const entries: Entries = signalEntries(series, setups, null, 0, { ask: costs.ask, slippage: 0, priceScale: scale });
    const ltf = { series: ltfSeries, stepMs: HOUR, ask: runCosts(ltfSeries, settings, 0.1, scale).ask };
    return simulateTrades(series, setups, entries, rules, { ltf, costs }).trades[0];
  };
  const t = run(2);
  // On the hour candle the ask reaches both SL (100.9 + 0.2) and TP1 (98.7 + 0.2): ambiguous, SL of record.
  assert.deepEqual([t.ambiguous, t.tp1Result, t.resolvedTp1Result, t.resolvedTp2Result], [true, 'loss', 'win', 'loss']);
  // On the bid alone the hour never reaches the stop: TP1, nothing ambiguous.
  const bid = run(0);
  assert.deepEqual([bid.ambiguous, bid.tp1Result, bid.tp2Result], [false, 'win', 'open']);
});

test('the workbook: cost columns on the Trades sheet only when the run paid costs; the Config rows state them', async () => {
  const candles = await eurusdH1();
  const request = { strategy: 'fvg_impulsive', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, from: Date.UTC(2017, 5, 1), to: Date.UTC(2017, 5, 30) } as const;
  const paid = await runBacktest(candles, { ...request, costs: { spreadPips: 1.3, slippagePips: 0.5 } }, { workbook: true, createdAt: 0 });
  const trades = await readWorkbookSheet(paid.workbook!, 'Trades');
  assert.deepEqual(trades.headers.slice(-3), ['Spread (pips)', 'Coûts entrée (pips)', 'Coût au SL (pips)']);
  assert.deepEqual(trades.rows[0].slice(-3), [1.3, 0.5, 0.5]);
  const config = await readWorkbookSheet(paid.workbook!, 'Config');
  const rows = new Map(config.rows.map((r) => [r[0], r[1]]));
  assert.deepEqual([rows.get('spread_pips'), rows.get('slippage_pips'), rows.get('commission_pips')], [1.3, 0.5, 0]);
  const free = await runBacktest(candles, request, { workbook: true, createdAt: 0 });
  assert.equal((await readWorkbookSheet(free.workbook!, 'Trades')).headers.at(-1), 'Index entrée');
});
