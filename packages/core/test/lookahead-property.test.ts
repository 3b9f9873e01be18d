// No look-ahead, as a property (docs/architecture.md §2): for every strategy on real data, cutting the data at
// random points leaves every trade entered before the cut unchanged (entry time, side, price).
// Truncation cannot see a decision that peeks at its own entry candle's close, so each cut also
// keeps the cut candle with a different close: entries up to and including it must not move.
// The same holds with trading costs on (spread by hour, the data's Spread column, slippage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { STRATEGIES, candlesFromColumns, headCandles, prepareRun, priceRounding, runCosts, runEngine, withIndicators, columnList, filterColumnNames, type Candles, type BacktestRequest } from '@bt/core';
import { readCandlesFile } from '@bt/core/node';
import { seededRandom as prng } from '@bt/core/candles';

const fixtures = join(import.meta.dirname, '../../../fixtures');
const CUTS = 20;

const entryKey = (t: { entryTime: number; side: string; entryPrice: number; orderPrice: number }) => `${t.entryTime} ${t.side} ${t.entryPrice} ${t.orderPrice}`;

function entriesOf(candles: Candles, request: BacktestRequest): string[] {
  const { plan, params, exits, costs } = prepareRun(candles, request);
  const series = withIndicators(candles, columnList(filterColumnNames(plan.filters, params)));
  const runCost = request.costs ? runCosts(series, costs, exits.pipSize, priceRounding(exits.pipSize)) : undefined;
  return runEngine(series, { plan, params, exits, costs: runCost }).simulation.trades.map(entryKey);
}

/** Candles 0..last, the last one closing at `close` instead (a candle seen before its close). */
function withLastClose(candles: Candles, last: number, close: number): Candles {
  const copy = (a: Float64Array) => a.slice(0, last + 1);
  const closes = copy(candles.close);
  closes[last] = close;
  const extra = Object.fromEntries(Object.entries(candles.extra).map(([k, v]) => [k, copy(v)]));
  return candlesFromColumns(
    { time: copy(candles.time), open: copy(candles.open), high: copy(candles.high), low: copy(candles.low), close: closes, volume: copy(candles.volume), extra },
    { symbol: candles.symbol, timeframe: candles.timeframe },
  );
}

/**
 * Entries of the full run before each cut must be exactly the entries of the run on the cut data;
 * and with the cut candle kept but closing elsewhere in its range, entries up to it must not move.
 */
function checkCuts(candles: Candles, request: BacktestRequest, seed: number, cuts = CUTS): number {
  const full = entriesOf(candles, request);
  const fullTimes = full.map((k) => Number(k.split(' ')[0]));
  const rand = prng(seed);
  const what = `${String(request.strategy)} ${JSON.stringify(request.params ?? {})}`;
  let compared = 0;
  for (let c = 0; c < cuts; c++) {
    const cut = 50 + Math.floor(rand() * (candles.length - 50));
    const before = full.filter((_, i) => fullTimes[i] < candles.time[cut]);
    assert.deepEqual(entriesOf(headCandles(candles, cut), request), before, `${what}: cut before candle ${cut}`);
    const upTo = full.filter((_, i) => fullTimes[i] <= candles.time[cut]);
    const close = candles.low[cut] + rand() * (candles.high[cut] - candles.low[cut]);
    assert.deepEqual(entriesOf(withLastClose(candles, cut, close), request), upTo, `${what}: candle ${cut} closing at ${close}`);
    compared += upTo.length;
  }
  return compared;
}

// With costs too (docs/engine.md §13): a spread by hour (wide in Asia) on the H1 file, the file's
// own Spread column on the MetaTrader M15 file, slippage and commission on both.
const BY_HOUR = Array.from({ length: 24 }, (_, h) => (h < 7 ? 2.5 : h >= 21 ? 3 : 1.2));
const FILES = [
  { name: 'EURUSD H1 (backtesting.py)', file: 'official/EURUSD_H1_2017-2018.csv', options: { symbol: 'EURUSD' }, costs: { spreadByHour: BY_HOUR, slippagePips: 0.5, commissionPips: 0.3 } },
  { name: 'EURUSD M15 (smart-money-concepts, +02:00)', file: 'smc/EURUSD_15M.csv', options: { symbol: 'EURUSD', utcOffset: '+02:00' }, costs: { spreadFromData: true, slippagePips: 0.5 } },
] as const;

for (const { name, file, options, costs } of FILES) {
  test(`no look-ahead: every strategy on ${name}, cut at ${CUTS} random points, without and with costs`, async () => {
    const { candles } = await readCandlesFile(join(fixtures, file), options);
    let compared = 0;
    for (const [s, strategy] of STRATEGIES.entries()) {
      const base: BacktestRequest = { strategy: strategy.key, symbol: 'EURUSD', slPips: 15, tp1Pips: 15, tp2Pips: 30 };
      compared += checkCuts(candles, base, 1000 + s);
      // Entry rules that move things around: confirmation, several fills per zone, a deep resting order.
      const stressed = strategy.entryMode === 'pullback' ? { confirm_candle: true, allow_multiple_entries: true, min_overlap_ratio: 0.5, max_touch: 5 } : { confirm_candle: true };
      compared += checkCuts(candles, { ...base, params: stressed }, 2000 + s);
      compared += checkCuts(candles, { ...base, costs }, 3000 + s, CUTS / 2);
    }
    assert.ok(compared > 10_000, `trades compared: ${compared}`);
  });
}
