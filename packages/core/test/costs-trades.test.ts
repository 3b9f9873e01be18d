// Trading costs, hand-computed (docs/engine.md §13): candles are bids; a buy fills at the ask and is
// judged on the bid, a sell fills at the bid and is judged on the ask; commission and slippage are
// charged in R. Prices around 100, pip 0.1 (10 pips = 1.0), one-hour candles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeCosts, runCosts, CostError, type TradingCostsInput } from '@bt/core/costs';
import type { Setups } from '@bt/core/patterns';
import { priceRounding, pullbackEntries, signalEntries, simulateTrades, type ExitRules, type Trade } from '@bt/core/simulate';
import { bars, mirror, m, T0, HOUR, type Bar } from './engine-fixtures.js';

const PIP = 0.1;
const SCALE = priceRounding(PIP);
const EXTERNAL: ExitRules = { slMode: 'external', slPips: 10, tp1Pips: 10, tp2Pips: 20, pipSize: PIP };
const RESTING = { minWait: 1, maxWait: 20, maxTouch: Infinity, allowMultiple: false };

function setupOf(side: 1 | -1, top = 0, bottom = 0): Setups {
  return { kind: 'custom', count: 1, side: Int8Array.of(side), top: Float64Array.of(top), bottom: Float64Array.of(bottom), stop: Float64Array.of(side > 0 ? bottom : top), formedAt: Int32Array.of(0), confirmedAt: Int32Array.of(0) };
}

/** A market entry at the open of candle 1 (signal at candle 0), with costs; the one trade or none. */
function marketTrade(rows: Bar[], side: 1 | -1, costs: TradingCostsInput, symbol = 'TEST'): Trade | undefined {
  const series = bars(rows);
  const c = runCosts(series, normalizeCosts(costs, symbol), PIP, SCALE);
  const setups = setupOf(side);
  const entries = signalEntries(series, setups, null, 0, { ask: c.ask, slippage: c.slippage, priceScale: SCALE });
  return simulateTrades(series, setups, entries, EXTERNAL, { costs: c }).trades[0];
}

/** A resting order in the zone [bottom, top] confirmed at candle 0 (a buy rests at top, a sell at bottom). */
function restingTrade(rows: Bar[], side: 1 | -1, top: number, bottom: number, costs: TradingCostsInput): Trade | undefined {
  const series = bars(rows);
  const c = runCosts(series, normalizeCosts(costs, 'TEST'), PIP, SCALE);
  const setups = setupOf(side, top, bottom);
  const entries = pullbackEntries(series, setups, null, RESTING, 0, SCALE, c.ask);
  return simulateTrades(series, setups, entries, EXTERNAL, { costs: c }).trades[0];
}

const pick = (t: Trade | undefined, ...keys: (keyof Trade)[]) => (t ? Object.fromEntries(keys.map((k) => [k, t[k]])) : t);
const at = (i: number) => T0 + i * HOUR;

test('spread, market buy: fills at the ask open, levels from it, stop and targets judged on the bid', () => {
  const rows: Bar[] = [[100, 100.4, 99.9, 100], [100, 100.5, 99.5, 100.2], [100.2, 101.1, 100, 101], [101, 101.3, 100.8, 101], [101, 102.3, 100.9, 102.2]];
  const t = marketTrade(rows, 1, { spreadPips: 2 });
  assert.deepEqual(pick(t, 'orderPrice', 'entryPrice', 'sl', 'tp1', 'tp2', 'spreadPips'), { orderPrice: 100.2, entryPrice: 100.2, sl: 99.2, tp1: 101.2, tp2: 102.2, spreadPips: 2 });
  // Candle 2's bid high 101.1 misses TP1 101.2 (without spread TP1 would be 101, reached there).
  assert.deepEqual(pick(t, 'tp1Time', 'tp2Time', 'outcome', 'rTp1', 'rTp2', 'mfePips', 'maePips'), { tp1Time: at(3), tp2Time: at(4), outcome: 'tp2', rTp1: 1, rTp2: 2, mfePips: 20, maePips: 7 });
  assert.deepEqual(pick(marketTrade(rows, 1, {}), 'orderPrice', 'tp1Time', 'spreadPips'), { orderPrice: 100, tp1Time: at(2), spreadPips: 0 });
});

test('spread, market sell: fills at the bid open, its stop is judged on the ask (bid high + spread)', () => {
  const rows: Bar[] = [[100, 100.1, 99.6, 100], [100, 100.5, 99.5, 99.8], [99.8, 100.9, 99.6, 100.6], [100.6, 100.7, 98.9, 99]];
  const t = marketTrade(rows, -1, { spreadPips: 2 });
  // Ask high of candle 2 = 100.9 + 0.2 = 101.1 >= SL 101; the bid alone (100.9) would not stop it.
  assert.deepEqual(pick(t, 'orderPrice', 'entryPrice', 'sl', 'tp1', 'outcome', 'slTime', 'rTp1', 'rTp2', 'mfePips', 'maePips'), {
    orderPrice: 100, entryPrice: 100, sl: 101, tp1: 99, outcome: 'sl', slTime: at(2), rTp1: -1, rTp2: -1, mfePips: 3, maePips: 10,
  });
  assert.deepEqual(pick(marketTrade(rows, -1, {}), 'outcome', 'tp1Time'), { outcome: 'tp1', tp1Time: at(3) }, 'without spread candle 3 reaches TP1');
});

test('spread, resting buy: the touch counts on the bid, the fill needs the ask to reach the order; on the fill candle only the bid stop counts', () => {
  const rows: Bar[] = [
    [100.5, 100.8, 100.3, 100.6],
    [100.5, 100.6, 99.9, 100.3], // bid touches 100, ask low 100.1 does not fill
    [100.3, 101.2, 100.2, 101.1],
    [101.1, 101.2, 99.7, 99.8], // ask low 99.9 <= 100: fills at 100 (ask open 101.3 above it)
    [99.8, 101.05, 99.75, 101], // bid high reaches TP1 101
    [101, 102.1, 100.9, 102],
  ];
  const t = restingTrade(rows, 1, 100, 99, { spreadPips: 2 });
  assert.deepEqual(pick(t, 'entryTime', 'orderPrice', 'entryPrice', 'sl', 'tp1', 'tp2', 'outcome', 'tp1Time', 'tp2Time', 'maePips', 'spreadPips'), {
    entryTime: at(3), orderPrice: 100, entryPrice: 100, sl: 99, tp1: 101, tp2: 102, outcome: 'tp2', tp1Time: at(4), tp2Time: at(5), maePips: 3, spreadPips: 2,
  });
  assert.deepEqual(pick(restingTrade(rows, 1, 100, 99, {}), 'entryTime', 'tp1Time'), { entryTime: at(1), tp1Time: at(2) }, 'without spread it fills on the first touch');
  // The ask opening below the order fills at that open (the bracket stays on the order price).
  const gap = restingTrade([[100.5, 100.8, 100.3, 100.6], [99.7, 99.9, 99.5, 99.8], [99.8, 101.1, 99.7, 101]], 1, 100, 99, { spreadPips: 2 });
  assert.deepEqual(pick(gap, 'entryTime', 'orderPrice', 'entryPrice', 'sl', 'tp1'), { entryTime: at(1), orderPrice: 100, entryPrice: 99.9, sl: 99, tp1: 101 });
  // Fill candle whose bid low reaches the stop: stopped there (the entry-candle rule).
  const stopped = restingTrade([[100.5, 100.8, 100.3, 100.6], [100.5, 100.6, 98.9, 99.2]], 1, 100, 99, { spreadPips: 2 });
  assert.deepEqual(pick(stopped, 'entryTime', 'outcome', 'slTime', 'rTp1'), { entryTime: at(1), outcome: 'sl', slTime: at(1), rTp1: -1 });
});

test('spread, resting sell: fills on the bid, judged on the ask, the fill candle included', () => {
  const rows: Bar[] = [[99.5, 99.7, 99.2, 99.4], [99.4, 100.05, 99.3, 99.9], [99.9, 100.85, 99.5, 100.7], [100.7, 100.8, 98.8, 98.9]];
  const t = restingTrade(rows, -1, 101, 100, { spreadPips: 2 });
  // Fills at 100 on candle 1 (bid high 100.05); its ask high 100.25 is 2.5 pips against it; candle 2's ask high 101.05 stops it.
  assert.deepEqual(pick(t, 'entryTime', 'orderPrice', 'entryPrice', 'sl', 'tp1', 'outcome', 'slTime', 'maePips', 'rTp1'), {
    entryTime: at(1), orderPrice: 100, entryPrice: 100, sl: 101, tp1: 99, outcome: 'sl', slTime: at(2), maePips: 10, rTp1: -1,
  });
  assert.deepEqual(pick(restingTrade(rows, -1, 101, 100, {}), 'outcome', 'tp1Time'), { outcome: 'tp1', tp1Time: at(3) });
  // On the fill candle the ask high reaching the stop stops the trade.
  const stopped = restingTrade([[99.5, 99.7, 99.2, 99.4], [99.4, 100.85, 99.3, 100.8]], -1, 101, 100, { spreadPips: 2 });
  assert.deepEqual(pick(stopped, 'entryTime', 'outcome', 'slTime'), { entryTime: at(1), outcome: 'sl', slTime: at(1) });
  assert.deepEqual(pick(restingTrade([[99.5, 99.7, 99.2, 99.4], [99.4, 100.85, 99.3, 100.8]], -1, 101, 100, {}), 'outcome'), { outcome: 'open' });
});

// Without spread, the sell is the exact mirror of the buy: one expectation checks both sides.
function bothMarket(rows: Bar[], costs: TradingCostsInput): Trade {
  const b = marketTrade(rows, 1, costs)!;
  const s = marketTrade(mirror(rows), -1, costs)!;
  const r9 = (x: number) => Math.round(x * 1e9) / 1e9;
  const mirrored = { ...s, side: 'buy', orderPrice: r9(m(s.orderPrice)), entryPrice: r9(m(s.entryPrice)), sl: r9(m(s.sl)), tp1: r9(m(s.tp1)), tp2: r9(m(s.tp2)) };
  assert.deepEqual(mirrored, b, 'the sell mirrors the buy');
  return b;
}
const WIN: Bar[] = [[100, 100.4, 99.9, 100], [100, 100.5, 99.5, 100.2], [100.2, 101.2, 100, 101], [101, 102.3, 100.9, 102.2]];
const LOSS: Bar[] = [[100, 100.4, 99.9, 100], [100, 100.5, 99.5, 100.2], [100.2, 100.3, 98.8, 99]];
const TP1_THEN_SL: Bar[] = [[100, 100.4, 99.9, 100], [100, 101.2, 99.5, 101], [101, 101.1, 98.9, 99]];

test('commission in pips: charged on every closed target, both sides', () => {
  assert.deepEqual(pick(bothMarket(WIN, { commissionPips: 1 }), 'outcome', 'rTp1', 'rTp2', 'costPips', 'stopCostPips'), { outcome: 'tp2', rTp1: 0.9, rTp2: 1.9, costPips: 1, stopCostPips: 0 });
  assert.deepEqual(pick(bothMarket(LOSS, { commissionPips: 1 }), 'outcome', 'rTp1', 'rTp2'), { outcome: 'sl', rTp1: -1.1, rTp2: -1.1 });
  assert.deepEqual(pick(bothMarket(TP1_THEN_SL, { commissionPips: 0.5 }), 'outcome', 'rTp1', 'rTp2'), { outcome: 'tp1', rTp1: 0.95, rTp2: -1.05 });
});

test('slippage: against a market entry and at the stop, not at a target; both sides', () => {
  const win = bothMarket(WIN, { slippagePips: 1 });
  // Fill 100.1 (one pip worse than the 100 open), levels from the order price 100.
  assert.deepEqual(pick(win, 'orderPrice', 'entryPrice', 'sl', 'tp1', 'rTp1', 'rTp2', 'costPips', 'stopCostPips', 'maePips', 'mfePips'), {
    orderPrice: 100, entryPrice: 100.1, sl: 99, tp1: 101, rTp1: 0.9, rTp2: 1.9, costPips: 1, stopCostPips: 1, maePips: 6, mfePips: 19,
  });
  assert.deepEqual(pick(bothMarket(LOSS, { slippagePips: 1 }), 'rTp1', 'rTp2', 'maePips'), { rTp1: -1.2, rTp2: -1.2, maePips: 11 });
  assert.deepEqual(pick(bothMarket(TP1_THEN_SL, { slippagePips: 1, commissionPips: 0.5 }), 'rTp1', 'rTp2'), { rTp1: 0.85, rTp2: -1.25 });
  // A resting order fills at its price: no entry slippage, only the stop's.
  const rows: Bar[] = [[100.5, 100.8, 100.3, 100.6], [100.5, 100.6, 99.9, 100.3], [100.3, 100.4, 98.9, 99]];
  assert.deepEqual(pick(restingTrade(rows, 1, 100, 99, { slippagePips: 1 }), 'entryPrice', 'rTp1', 'costPips', 'stopCostPips'), { entryPrice: 100, rTp1: -1.1, costPips: 0, stopCostPips: 1 });
});

test('an open trade has no result and pays no cost', () => {
  const t = bothMarket([[100, 100.4, 99.9, 100], [100, 100.5, 99.5, 100.2]], { commissionPips: 1, slippagePips: 1 });
  assert.deepEqual(pick(t, 'outcome', 'rTp1', 'rTp2'), { outcome: 'open', rTp1: 0, rTp2: 0 });
});

test('commission per lot: exact in the quote currency, converted at the fill price in the base currency', () => {
  const eurusd = (x: number): Bar => [x, x + 0.0004, x - 0.0001, x];
  const series = bars([eurusd(1.1), eurusd(1.1)]);
  const quote = runCosts(series, normalizeCosts({ commissionPerLot: 7, accountCurrency: 'usd' }, 'EURUSD'), 0.0001, priceRounding(0.0001));
  assert.equal(quote.commission, 0.00007, '$7 per 100,000 EUR = 0.7 pip');
  assert.equal(quote.commissionPerPrice, 0);
  const base = runCosts(series, normalizeCosts({ commissionPerLot: 7, accountCurrency: 'EUR' }, 'EUR/USD'), 0.0001, priceRounding(0.0001));
  assert.equal(base.commission, 0);
  assert.equal(base.commissionPerPrice, 0.00007, '€7 is 7 × price dollars: 0.77 pip at 1.1');
  // The R of a 10-pip TP1 win after a $7 commission on EURUSD: (10 - 0.7) / 10.
  const rows: Bar[] = [[1.1, 1.1004, 1.0999, 1.1], [1.1, 1.1005, 1.0995, 1.1002], [1.1002, 1.1011, 1.1, 1.101]];
  const s = bars(rows);
  const c = runCosts(s, normalizeCosts({ commissionPerLot: 7, accountCurrency: 'USD' }, 'EURUSD'), 0.0001, priceRounding(0.0001));
  const setups = setupOf(1);
  const e = signalEntries(s, setups, null, 0, { ask: c.ask, slippage: c.slippage, priceScale: priceRounding(0.0001) });
  const t = simulateTrades(s, setups, e, { ...EXTERNAL, pipSize: 0.0001 }, { costs: c }).trades[0];
  assert.deepEqual(pick(t, 'tp1Result', 'rTp1', 'costPips'), { tp1Result: 'win', rTp1: 0.93, costPips: 0.7 });
});

test('costs are checked: bounds, finite numbers, 24 hours, per-lot commission only where exact', () => {
  const bad: [TradingCostsInput, string][] = [
    [{ spreadPips: -1 }, 'invalid spread_pips: -1 (expected a number of pips from 0 to 1,000)'],
    [{ spreadPips: Number.NaN }, 'invalid spread_pips: NaN (expected a number of pips from 0 to 1,000)'],
    [{ slippagePips: Infinity }, 'invalid slippage_pips: Infinity (expected a number of pips from 0 to 1,000)'],
    [{ commissionPips: 1001 }, 'invalid commission_pips: 1001 (expected a number of pips from 0 to 1,000)'],
    [{ spreadPips: '2' as unknown as number }, 'invalid spread_pips: "2" (expected a number of pips from 0 to 1,000)'],
    [{ spreadByHour: [1, 2] }, 'invalid spread_by_hour: "2 values" (expected 24 spreads in pips, one per UTC hour 0 to 23)'],
    [{ spreadByHour: [...Array(23).fill(1), -2] }, 'invalid spread_by_hour[23]: -2 (expected a number of pips from 0 to 1,000)'],
    [{ spreadPointSize: 0 }, 'invalid spread_point_size: 0 (expected a price > 0, e.g. 0.00001 for a 5-decimal EURUSD)'],
    [{ commissionPips: 1, commissionPerLot: 7, accountCurrency: 'USD' }, 'invalid commission_per_lot: 7 (give the commission in pips or per lot, not both)'],
    [{ commissionPerLot: 7 }, 'invalid account_currency: "missing" (required with commission_per_lot: EUR or USD)'],
    [{ commissionPerLot: 7, accountCurrency: 'GBP' }, 'invalid account_currency: "GBP" (a commission in GBP on EURUSD needs a GBP exchange rate bt does not have: use EUR or USD, or give commission_pips)'],
    [{ commissionPerLot: 10_001, accountCurrency: 'USD' }, 'invalid commission_per_lot: 10001 (expected a number of account currency per lot from 0 to 10,000)'],
    [{ spread: 2 } as unknown as TradingCostsInput, 'invalid costs: "spread" (unknown cost field; expected spreadPips, spreadByHour, spreadFromData, spreadPointSize, commissionPips, commissionPerLot, accountCurrency, slippagePips)'],
  ];
  for (const [input, message] of bad) {
    assert.throws(() => normalizeCosts(input, 'EURUSD'), (e: unknown) => e instanceof CostError && e.message === message, message);
  }
  assert.throws(() => normalizeCosts({ commissionPerLot: 7, accountCurrency: 'USD' }, 'US30'), /a lot of US30 has no size bt knows/);
  assert.equal(normalizeCosts({ commissionPerLot: 7, accountCurrency: 'JPY' }, 'USDJPY').accountSide, 'quote');
  assert.equal(normalizeCosts({ commissionPerLot: 7, accountCurrency: 'USD' }, 'USDJPY').accountSide, 'base');
});
