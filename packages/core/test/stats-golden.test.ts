import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeStatistics, goldenMinTrades, wilsonInterval } from '@bt/core/stats';
import { makeTrades, type Path, type TradeSpec } from './trade-factory.js';

/** `n` trades at UTC hour `hour` (spread over days): `tp2` reach TP2, `tp1` more stop after TP1, the rest stop out. */
function hourTrades(hour: number, n: number, tp2: number, tp1 = 0, open = 0): Array<Omit<TradeSpec, 'id'>> {
  return Array.from({ length: n + open }, (_, i) => {
    const path: Path = i < tp2 ? 'tp2' : i < tp2 + tp1 ? 'tp1sl' : i < n ? 'sl' : 'open';
    const day = String(1 + (i % 28)).padStart(2, '0');
    return { at: `2024-05-${day}T${String(hour).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`, path };
  });
}

test('golden hours: ranked by TP1 win rate, ties by evidence, then TP2, then hour', () => {
  const trades = makeTrades([
    ...hourTrades(9, 5, 2, 2), //  TP1 4/5, TP2 2/5
    ...hourTrades(10, 10, 4, 4), // TP1 8/10: same rate, more trades
    ...hourTrades(11, 5, 4, 0), // TP1 4/5, TP2 4/5
    ...hourTrades(12, 5, 2, 2), // identical to hour 9
    ...hourTrades(14, 3, 3, 0), // TP1 3/3
    ...hourTrades(15, 2, 2, 0), // 2 trades: below the minimum of 3
  ]);
  const { goldenHours } = computeStatistics(trades);
  assert.equal(goldenHours.min_trades, 3); // 30 resolved: 5 % is 1.5, the floor of 3 wins
  assert.deepEqual(goldenHours.golden_hours.map((h) => h.hour), [14, 10, 11, 9, 12]);
  const h10 = goldenHours.golden_hours[1];
  assert.deepEqual(h10, { hour: 10, TP1: 0.8, TP2: 0.4, trades: 10, TP1_ci95: wilsonInterval(8, 10), TP2_ci95: wilsonInterval(4, 10) });
  assert.equal(goldenHours.winrate_global.TP1, 25 / 30);
  assert.equal(goldenHours.winrate_global.TP2, 17 / 30);
  assert.deepEqual(goldenHours.winrate_global.TP1_ci95, wilsonInterval(25, 30));
});

test('golden hours: the 5 % rule raises the minimum on large runs; open trades do not count', () => {
  const trades = makeTrades([
    ...hourTrades(8, 4, 4, 0, 10), // 4 resolved wins + 10 open: still only 4 resolved
    ...hourTrades(9, 5, 3, 0), // exactly 5 resolved: eligible
    ...hourTrades(13, 91, 20, 20),
  ]);
  const { goldenHours, global } = computeStatistics(trades);
  assert.equal(global.resolved, 100);
  assert.equal(goldenHours.min_trades, 5);
  assert.deepEqual(goldenHours.golden_hours.map((h) => [h.hour, h.TP1, h.trades]), [[9, 0.6, 5], [13, 40 / 91, 91]]);
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
  assert.deepEqual(loose.golden_hours.map((h) => [h.hour, h.TP1, h.TP2]), [[3, 1, 1], [4, 0, 0]]);
  assert.deepEqual(computeStatistics(trades).goldenHours.golden_hours, []);
  assert.throws(() => computeStatistics(trades, { goldenMinTrades: 0 }), /invalid goldenMinTrades: 0/);
});

test('golden hours JSON has the API shape', () => {
  const json = JSON.parse(JSON.stringify(computeStatistics(makeTrades(hourTrades(9, 4, 1, 2))).goldenHours));
  assert.deepEqual(Object.keys(json), ['winrate_global', 'golden_hours', 'min_trades']);
  assert.deepEqual(Object.keys(json.winrate_global), ['TP1', 'TP2', 'TP1_ci95', 'TP2_ci95']);
  assert.deepEqual(json.golden_hours[0].hour, 9);
  assert.equal(json.golden_hours[0].TP1, 0.75);
  assert.equal(json.golden_hours[0].TP2, 0.25);
  assert.equal(json.golden_hours[0].TP1_ci95.length, 2);
});
