import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runBacktest } from '@bt/core';
import { seededRandom } from '@bt/core/candles';
import { readCandlesFile } from '@bt/core/node';
import { computeStatistics, GOLDEN_HOURS_MAX, goldenMinTrades, wilsonInterval } from '@bt/core/stats';
import { makeTrades, type Path, type TradeSpec } from './trade-factory.js';

/** `n` trades at UTC hour `hour` (spread over days): `tp2` reach TP2, `tp1` more stop after TP1, the rest stop out. */
function hourTrades(hour: number, n: number, tp2: number, tp1 = 0, open = 0): Array<Omit<TradeSpec, 'id'>> {
  return Array.from({ length: n + open }, (_, i) => {
    const path: Path = i < tp2 ? 'tp2' : i < tp2 + tp1 ? 'tp1sl' : i < n ? 'sl' : 'open';
    const day = String(1 + (i % 28)).padStart(2, '0');
    return { at: `2024-05-${day}T${String(hour).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`, path };
  });
}

/** The rule every golden list obeys, checked on any statistics (docs/report.md "Golden hours"). */
function assertGoldenRule(stats: ReturnType<typeof computeStatistics>): void {
  const { goldenHours, byHour, global } = stats;
  const g = global.tp1;
  const above = byHour.filter((h) => h.resolved >= goldenHours.min_trades && h.tp1.wins * g.resolved > g.wins * h.tp1.resolved);
  assert.equal(goldenHours.above_global, above.length);
  assert.equal(goldenHours.eligible_hours, byHour.filter((h) => h.resolved >= goldenHours.min_trades).length);
  assert.ok(goldenHours.golden_hours.length <= GOLDEN_HOURS_MAX);
  assert.equal(goldenHours.golden_hours.length, Math.min(GOLDEN_HOURS_MAX, above.length));
  let previous = Infinity;
  for (const h of goldenHours.golden_hours) {
    assert.ok(h.TP1 > g.winrate!, `${h.hour}h: ${h.TP1} is above the global ${g.winrate}`);
    assert.ok(h.trades >= goldenHours.min_trades);
    assert.ok(h.TP1_ci95[0] <= previous, 'ranked by the Wilson lower bound');
    previous = h.TP1_ci95[0];
  }
  const starred = new Set(goldenHours.golden_hours.map((h) => h.hour));
  for (const h of above) if (!starred.has(h.hour)) assert.ok(h.tp1.winrateCi95![0] <= previous, `${h.hour}h left out only below the last starred bound`);
}

test('an hour below the global TP1 win rate is never golden, however many trades it has', () => {
  // The case: 12h at 3/8 (37.5 %) under a 62 % global rate; 09h 4/4 and 10h 5/6 above.
  const trades = makeTrades([
    ...hourTrades(9, 4, 2, 2), //   4/4 = 100 %
    ...hourTrades(10, 6, 3, 2), //  5/6 = 83.3 %
    ...hourTrades(12, 8, 1, 2), //  3/8 = 37.5 %
    ...hourTrades(14, 6, 2, 2), //  4/6 = 66.7 %
    ...hourTrades(15, 5, 1, 1), //  2/5 = 40 %
    ...hourTrades(16, 2, 2, 0), //  2/2 = 100 %, but 2 resolved trades: not eligible
  ]);
  const stats = computeStatistics(trades);
  const { goldenHours } = stats;
  assert.equal(goldenHours.min_trades, 3);
  assert.equal(goldenHours.winrate_global.TP1, 20 / 31);
  assert.deepEqual(goldenHours.golden_hours.map((h) => h.hour), [9, 10, 14]);
  assert.deepEqual(goldenHours.golden_hours[1], { hour: 10, TP1: 5 / 6, TP2: 3 / 6, trades: 6, TP1_ci95: wilsonInterval(5, 6), TP2_ci95: wilsonInterval(3, 6) });
  assert.deepEqual([goldenHours.eligible_hours, goldenHours.above_global], [5, 3]);
  assertGoldenRule(stats);
});

test('golden hours are ranked by the lower bound of their Wilson interval: evidence before a lucky streak', () => {
  const trades = makeTrades([
    ...hourTrades(8, 5, 5, 0), //    5/5 = 100 %, Wilson lower bound 0.566
    ...hourTrades(11, 20, 10, 8), // 18/20 = 90 %, lower bound 0.699
    ...hourTrades(13, 40, 4, 6), //  10/40 = 25 %: pulls the global rate down
  ]);
  const stats = computeStatistics(trades);
  assert.ok(wilsonInterval(18, 20)![0] > wilsonInterval(5, 5)![0]);
  assert.deepEqual(stats.goldenHours.golden_hours.map((h) => [h.hour, h.TP1]), [[11, 0.9], [8, 1]]);
  assertGoldenRule(stats);
});

test('at most 3 golden hours; the others above the global rate are counted, not starred', () => {
  const trades = makeTrades([
    ...hourTrades(1, 10, 9, 0),
    ...hourTrades(2, 10, 8, 0),
    ...hourTrades(3, 10, 7, 0),
    ...hourTrades(4, 10, 6, 1),
    ...hourTrades(5, 10, 7, 0),
    ...hourTrades(6, 30, 3, 0),
  ]);
  const stats = computeStatistics(trades);
  assert.deepEqual(stats.goldenHours.golden_hours.map((h) => h.hour), [1, 2, 3]);
  assert.deepEqual([stats.goldenHours.eligible_hours, stats.goldenHours.above_global], [6, 5]);
  assertGoldenRule(stats);
});

test('none beats the global rate: no golden hour (equal rates, a lone hour, nothing resolved)', () => {
  // Every hour at exactly 50 %: equal is not above (compared as integers, no rounding noise).
  const equal = computeStatistics(makeTrades([...hourTrades(9, 4, 1, 1), ...hourTrades(10, 6, 2, 1), ...hourTrades(11, 10, 3, 2)]));
  assert.equal(equal.goldenHours.winrate_global.TP1, 0.5);
  assert.deepEqual(equal.goldenHours.golden_hours, []);
  assert.deepEqual([equal.goldenHours.eligible_hours, equal.goldenHours.above_global], [3, 0]);
  // A single eligible hour is the global rate itself.
  const alone = computeStatistics(makeTrades(hourTrades(14, 12, 9, 0)));
  assert.deepEqual(alone.goldenHours.golden_hours, []);
  // Only open trades: nothing resolved, nothing to beat.
  const open = computeStatistics(makeTrades(hourTrades(9, 0, 0, 0, 5)));
  assert.equal(open.goldenHours.winrate_global.TP1, null);
  assert.deepEqual(open.goldenHours.golden_hours, []);
  assert.deepEqual(computeStatistics([]).goldenHours.golden_hours, []);
});

test('the rule holds on 200 random runs', () => {
  const random = seededRandom(20230301);
  for (let run = 0; run < 200; run++) {
    const specs: Array<Omit<TradeSpec, 'id'>> = [];
    for (let hour = 0; hour < 24; hour++) {
      const n = Math.floor(random() ** 2 * 30);
      const rate = random();
      const wins = Math.round(n * rate);
      specs.push(...hourTrades(hour, n, Math.floor(wins / 2), wins - Math.floor(wins / 2), Math.floor(random() * 3)));
    }
    assertGoldenRule(computeStatistics(makeTrades(specs)));
  }
});

test('golden hours: the 5 % rule raises the minimum on large runs; open trades do not count', () => {
  const trades = makeTrades([
    ...hourTrades(8, 4, 4, 0, 10), // 4 resolved wins + 10 open: still only 4 resolved
    ...hourTrades(9, 5, 3, 0), // exactly 5 resolved: eligible, 60 % beats 43.7 %
    ...hourTrades(13, 91, 20, 20), // 40/91 = 44 %: below the global rate
  ]);
  const { goldenHours, global } = computeStatistics(trades);
  assert.equal(global.resolved, 100);
  assert.equal(goldenHours.min_trades, 5);
  assert.deepEqual(goldenHours.golden_hours.map((h) => [h.hour, h.TP1, h.trades]), [[9, 0.6, 5]]);
});

test('golden minimum: max(3, ceil(5 %)) without floating-point surprises', () => {
  assert.equal(goldenMinTrades(0), 3);
  assert.equal(goldenMinTrades(60), 3); // 0.05 * 60 is 3.0000000000000004 in binary
  assert.equal(goldenMinTrades(61), 4);
  assert.equal(goldenMinTrades(100), 5);
  assert.equal(goldenMinTrades(101), 6);
  assert.equal(goldenMinTrades(2000), 100);
});

test('golden hours options: a custom floor and share', () => {
  const trades = makeTrades([...hourTrades(3, 1, 1), ...hourTrades(4, 2, 0)]);
  const loose = computeStatistics(trades, { goldenMinTrades: 1, goldenMinShare: 0 }).goldenHours;
  assert.equal(loose.min_trades, 1);
  assert.deepEqual(loose.golden_hours.map((h) => [h.hour, h.TP1, h.TP2]), [[3, 1, 1]]);
  assert.equal(loose.eligible_hours, 2);
  assert.deepEqual(computeStatistics(trades).goldenHours.golden_hours, []);
  assert.throws(() => computeStatistics(trades, { goldenMinTrades: 0 }), /invalid goldenMinTrades: 0/);
});

test('golden hours JSON has the API shape', () => {
  const json = JSON.parse(JSON.stringify(computeStatistics(makeTrades([...hourTrades(9, 4, 1, 2), ...hourTrades(10, 4, 0, 1)])).goldenHours));
  assert.deepEqual(Object.keys(json), ['winrate_global', 'golden_hours', 'min_trades', 'eligible_hours', 'above_global']);
  assert.deepEqual(Object.keys(json.winrate_global), ['TP1', 'TP2', 'TP1_ci95', 'TP2_ci95']);
  assert.deepEqual(json.golden_hours[0].hour, 9);
  assert.equal(json.golden_hours[0].TP1, 0.75);
  assert.equal(json.golden_hours[0].TP2, 0.25);
  assert.equal(json.golden_hours[0].TP1_ci95.length, 2);
});

test('EURUSD M15, 1–31 March 2023, FVG pullback multi, SL 20: no hour under the global rate is starred', async () => {
  const { candles } = await readCandlesFile(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'smc', 'EURUSD_15M.csv'), { utcOffset: '+02:00', symbol: 'EURUSD' });
  const run = await runBacktest(candles, { strategy: 'fvg_pullback_multi', symbol: 'EURUSD', slPips: 20, tp1Pips: 20, tp2Pips: 40, from: Date.UTC(2023, 2, 1), to: Date.UTC(2023, 3, 1) - 1 });
  const { goldenHours, byHour, global } = run.statistics;
  assert.equal(global.tp1.winrate, 140 / 245); // 57.14 %
  assert.equal(goldenHours.min_trades, 13); // 5 % of 245 resolved trades
  // 12h: 5 of 13 (38 %), eligible and once starred; 09h (7/7) and 10h (5/6) have too few trades.
  assert.deepEqual([byHour[12].tp1.wins, byHour[12].resolved], [5, 13]);
  assert.deepEqual(goldenHours.golden_hours.map((h) => [h.hour, h.TP1, h.trades]), [[14, 13 / 16, 16]]);
  assertGoldenRule(run.statistics);
});
