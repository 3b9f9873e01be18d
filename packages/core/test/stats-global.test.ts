import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeStatistics, wilsonInterval } from '@bt/core/stats';
import { makeTrade, makeTrades } from './trade-factory.js';

// Eight trades, both sides, every path; answers worked out by hand in the comments.
const MIXED = makeTrades([
  { at: '2024-01-08T08:00:00Z', path: 'tp2', side: 'buy' }, //      TP1 +1  TP2 +2
  { at: '2024-01-08T09:05:00Z', path: 'sl', side: 'sell' }, //      TP1 -1  TP2 -1
  { at: '2024-01-08T10:10:00Z', path: 'sl', side: 'buy' }, //       TP1 -1  TP2 -1
  { at: '2024-01-09T14:00:00Z', path: 'tp1sl', side: 'sell' }, //   TP1 +1  TP2 -1
  { at: '2024-01-09T15:30:00Z', path: 'sl', side: 'buy' }, //       TP1 -1  TP2 -1
  { at: '2024-01-10T18:00:00Z', path: 'tp2', side: 'sell' }, //     TP1 +1  TP2 +2
  { at: '2024-01-10T19:45:00Z', path: 'tp1open', side: 'sell' }, // TP1 +1  TP2 open
  { at: '2024-01-11T23:55:00Z', path: 'open', side: 'buy' }, //     open    open
]);

test('global counts: open trades reported but left out of win rates', () => {
  const { global } = computeStatistics(MIXED);
  assert.equal(global.trades, 8);
  assert.equal(global.resolved, 7);
  assert.equal(global.tp1Wins, 4);
  assert.equal(global.tp2Wins, 2);
  assert.equal(global.sl, 3);
  assert.equal(global.open, 1);
  assert.equal(global.tp1ThenSl, 1);
  assert.equal(global.slRate, 3 / 7);
  assert.equal(global.firstTradeTime, Date.parse('2024-01-08T08:00:00Z'));
  assert.equal(global.lastTradeTime, Date.parse('2024-01-11T23:55:00Z'));
});

test('TP1 figures: win rate, Wilson, expectancy, profit factor, drawdown, streak', () => {
  const { tp1 } = computeStatistics(MIXED).global;
  assert.deepEqual(
    { ...tp1, winrateCi95: null },
    {
      resolved: 7,
      wins: 4,
      losses: 3,
      open: 1,
      winrate: 4 / 7,
      winrateCi95: null,
      expectancyR: 1 / 7,
      totalR: 1,
      profitFactor: 4 / 3,
      // cumulative R 1, 0, -1, 0, -1, 0, 1: from the peak 1 down to -1.
      maxDrawdownR: 2,
      longestLosingStreak: 2,
    },
  );
  assert.deepEqual(tp1.winrateCi95, wilsonInterval(4, 7));
});

test('TP2 figures are judged against the original stop; TP1-then-open stays open at TP2', () => {
  const { tp2 } = computeStatistics(MIXED).global;
  assert.equal(tp2.resolved, 6);
  assert.equal(tp2.wins, 2);
  assert.equal(tp2.losses, 4);
  assert.equal(tp2.open, 2);
  assert.equal(tp2.winrate, 2 / 6);
  assert.deepEqual(tp2.winrateCi95, wilsonInterval(2, 6));
  assert.equal(tp2.expectancyR, 0);
  assert.equal(tp2.totalR, 0);
  assert.equal(tp2.profitFactor, 1);
  // cumulative R 2, 1, 0, -1, -2, 0: from the peak 2 down to -2.
  assert.equal(tp2.maxDrawdownR, 4);
  // Trades 2..5 lose at TP2 (trade 4 reached TP1 first, then the stop).
  assert.equal(tp2.longestLosingStreak, 4);
});

test('R figures follow the planned reward/risk (TP1 at 1.5R, TP2 at 3R)', () => {
  const trades = makeTrades([
    { at: '2024-03-04T08:00:00Z', path: 'tp2', rr1: 1.5, rr2: 3 },
    { at: '2024-03-04T09:00:00Z', path: 'sl', rr1: 1.5, rr2: 3 },
    { at: '2024-03-04T10:00:00Z', path: 'tp1sl', rr1: 1.5, rr2: 3 },
  ]);
  const { tp1, tp2 } = computeStatistics(trades).global;
  assert.equal(tp1.expectancyR, (1.5 - 1 + 1.5) / 3);
  assert.equal(tp1.profitFactor, 3);
  assert.equal(tp2.expectancyR, (3 - 1 - 1) / 3);
  assert.equal(tp2.profitFactor, 1.5);
  assert.equal(tp2.maxDrawdownR, 2);
});

test('input order does not matter: figures use entry order', () => {
  const shuffled = [MIXED[5], MIXED[0], MIXED[7], MIXED[2], MIXED[4], MIXED[1], MIXED[6], MIXED[3]];
  assert.deepEqual(computeStatistics(shuffled), computeStatistics(MIXED));
});

test('all losses: win rate 0 with an honest upper bound, profit factor 0', () => {
  const trades = makeTrades(
    Array.from({ length: 5 }, (_, i) => ({ at: `2024-02-0${i + 5}T12:00:00Z`, path: 'sl' as const, side: i % 2 ? ('sell' as const) : ('buy' as const) })),
  );
  const { global } = computeStatistics(trades);
  assert.equal(global.tp1.winrate, 0);
  assert.equal(global.tp1.winrateCi95![0], 0);
  assert.equal(Number(global.tp1.winrateCi95![1].toFixed(4)), 0.4345);
  assert.equal(global.tp1.expectancyR, -1);
  assert.equal(global.tp1.profitFactor, 0);
  assert.equal(global.tp1.maxDrawdownR, 5);
  assert.equal(global.tp1.longestLosingStreak, 5);
  assert.equal(global.slRate, 1);
  assert.equal(global.tp2.winrate, 0);
});

test('all wins: profit factor undefined (null), no drawdown, no streak', () => {
  const trades = makeTrades([
    { at: '2024-02-05T12:00:00Z', path: 'tp2' },
    { at: '2024-02-06T12:00:00Z', path: 'tp2', side: 'sell' },
  ]);
  const { tp1 } = computeStatistics(trades).global;
  assert.equal(tp1.winrate, 1);
  assert.equal(tp1.profitFactor, null);
  assert.equal(tp1.maxDrawdownR, 0);
  assert.equal(tp1.longestLosingStreak, 0);
});

test('an open trade neither breaks nor extends a losing streak', () => {
  const trades = makeTrades([
    { at: '2024-02-05T12:00:00Z', path: 'sl' },
    { at: '2024-02-05T13:00:00Z', path: 'open' },
    { at: '2024-02-05T14:00:00Z', path: 'sl' },
    { at: '2024-02-05T15:00:00Z', path: 'tp2' },
    { at: '2024-02-05T16:00:00Z', path: 'sl' },
  ]);
  assert.equal(computeStatistics(trades).global.tp1.longestLosingStreak, 2);
});

test('zero trades: zero counts, null rates, every bucket still present', () => {
  const s = computeStatistics([]);
  assert.equal(s.global.trades, 0);
  assert.equal(s.global.tp1.winrate, null);
  assert.equal(s.global.tp1.winrateCi95, null);
  assert.equal(s.global.tp1.expectancyR, null);
  assert.equal(s.global.tp1.profitFactor, null);
  assert.equal(s.global.slRate, null);
  assert.equal(s.global.firstTradeTime, null);
  assert.equal(s.global.lastTradeTime, null);
  assert.equal(s.byHour.length, 24);
  assert.equal(s.byWeekday.length, 7);
  assert.equal(s.sessions.length, 5);
  assert.deepEqual(s.goldenHours.golden_hours, []);
  assert.equal(s.goldenHours.winrate_global.TP1, null);
  assert.equal(s.ambiguity.resolved, null);
});

test('only open trades: everything open, no win rate', () => {
  const s = computeStatistics([makeTrade({ id: 1, at: '2024-02-05T12:00:00Z', path: 'open' })]);
  assert.equal(s.global.open, 1);
  assert.equal(s.global.resolved, 0);
  assert.equal(s.global.tp1.winrate, null);
  assert.equal(s.global.tp2.open, 1);
});

test('malformed trade records are refused with the trade named', () => {
  const good = makeTrade({ id: 7, at: '2024-02-05T12:00:00Z', path: 'sl' });
  assert.throws(() => computeStatistics([{ ...good, hour: 24 }]), /invalid hour: 24 \(trade 7\)/);
  assert.throws(() => computeStatistics([{ ...good, weekday: 7 }]), /invalid weekday: 7 \(trade 7\)/);
  assert.throws(() => computeStatistics([{ ...good, tp1Result: 'tp' as never }]), /invalid tp1Result: tp \(trade 7\)/);
  assert.throws(() => computeStatistics([{ ...good, rTp1: Number.NaN }]), /invalid R/);
  assert.throws(() => computeStatistics([{ ...good, session: 'Asie' }]), /invalid session: Asie \(trade 7: hour 12 is Londres\)/);
  assert.throws(() => computeStatistics([], { goldenMinShare: 2 }), /invalid goldenMinShare: 2/);
});
