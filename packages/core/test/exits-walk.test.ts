import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Setups } from '@bt/core/patterns';
import { simulateTrades, type Entries, type ExitRules, type LowerTimeframe, type Trade } from '@bt/core/simulate';
import { bars, mirror, m, HOUR, T0, type Bar } from './engine-fixtures.js';

// Prices around 100, pip 0.1: 10 pips = 1.0. Mirrored around 200, 100 stays 100 and 99 <-> 101.
const EXTERNAL: ExitRules = { slMode: 'external', slPips: 10, tp1Pips: 10, tp2Pips: 20, pipSize: 0.1 };
const START: Bar = [100, 100.4, 99.9, 100]; // candle 0: the signal candle

interface EntrySpec { index?: number; orderPrice?: number; entryPrice?: number; resting?: boolean; stop?: number }

function simulate(rows: Bar[], spec: EntrySpec = {}, rules: ExitRules = EXTERNAL, side: 1 | -1 = 1, ltfRows?: Bar[], options: { start?: number } = {}) {
  const series = bars(side > 0 ? rows : mirror(rows), { start: options.start });
  const index = spec.index ?? 1;
  const mp = (x: number) => (side > 0 ? x : m(x));
  const setups: Setups = {
    kind: 'fvg', count: 1, side: Int8Array.of(side), top: Float64Array.of(0), bottom: Float64Array.of(0),
    stop: Float64Array.of(mp(spec.stop ?? 0)), formedAt: Int32Array.of(index - 1), confirmedAt: Int32Array.of(index - 1),
  };
  const entries: Entries = {
    count: 1, setup: Int32Array.of(0), index: Int32Array.of(index), side: Int8Array.of(side),
    orderPrice: Float64Array.of(spec.orderPrice !== undefined ? mp(spec.orderPrice) : series.open[index]),
    entryPrice: Float64Array.of(spec.entryPrice !== undefined ? mp(spec.entryPrice) : spec.orderPrice !== undefined ? mp(spec.orderPrice) : series.open[index]),
    resting: Uint8Array.of(spec.resting ? 1 : 0),
  };
  let ltf: LowerTimeframe | undefined;
  if (ltfRows) ltf = { series: bars(side > 0 ? ltfRows : mirror(ltfRows), { start: T0 + 2 * HOUR, stepMs: HOUR / 4 }), stepMs: HOUR };
  return simulateTrades(series, setups, entries, rules, { ltf });
}

/** The buy trade, after checking that the mirrored sell trade is its exact mirror. */
function both(rows: Bar[], spec: EntrySpec = {}, rules: ExitRules = EXTERNAL, ltfRows?: Bar[]): Trade {
  const buy = simulate(rows, spec, rules, 1, ltfRows);
  const sell = simulate(rows, spec, rules, -1, ltfRows);
  assert.equal(buy.trades.length, 1);
  assert.equal(sell.trades.length, 1);
  const b = buy.trades[0];
  const s = sell.trades[0];
  assert.equal(s.side, 'sell');
  const mirrored = { ...s, side: 'buy', orderPrice: m(s.orderPrice), entryPrice: m(s.entryPrice), sl: m(s.sl), tp1: m(s.tp1), tp2: m(s.tp2) };
  for (const key of ['orderPrice', 'entryPrice', 'sl', 'tp1', 'tp2'] as const) mirrored[key] = Math.round(mirrored[key] * 1e9) / 1e9;
  assert.deepEqual(mirrored, b, 'the sell trade mirrors the buy trade');
  return b;
}

const pick = (t: Trade, ...keys: (keyof Trade)[]) => Object.fromEntries(keys.map((k) => [k, t[k]]));

test('external levels from the order price; TP1 then TP2 on later candles', () => {
  const t = both([START, [100, 100.5, 99.5, 100.2], [100.2, 101.2, 100, 101], [101, 102.3, 100.8, 102]]);
  assert.deepEqual(pick(t, 'orderPrice', 'entryPrice', 'sl', 'tp1', 'tp2', 'riskPips'), { orderPrice: 100, entryPrice: 100, sl: 99, tp1: 101, tp2: 102, riskPips: 10 });
  assert.deepEqual(pick(t, 'tp1Result', 'tp2Result', 'outcome', 'rTp1', 'rTp2', 'ambiguous'), { tp1Result: 'win', tp2Result: 'win', outcome: 'tp2', rTp1: 1, rTp2: 2, ambiguous: false });
  assert.deepEqual(pick(t, 'signalTime', 'entryTime', 'tp1Time', 'tp2Time', 'slTime'), { signalTime: T0, entryTime: T0 + HOUR, tp1Time: T0 + 2 * HOUR, tp2Time: T0 + 3 * HOUR, slTime: null });
  assert.deepEqual(pick(t, 'mfePips', 'maePips'), { mfePips: 20, maePips: 5 }, 'MFE capped at TP2');
});

test('stop loss: -1R on both targets; MAE capped at the stop, the SL candle favourable side ignored', () => {
  const t = both([START, [100, 100.5, 99.5, 100.2], [100, 100.9, 98.8, 99]]);
  assert.deepEqual(pick(t, 'tp1Result', 'tp2Result', 'outcome', 'rTp1', 'rTp2', 'slTime', 'mfePips', 'maePips', 'ambiguous'), {
    tp1Result: 'loss', tp2Result: 'loss', outcome: 'sl', rTp1: -1, rTp2: -1, slTime: T0 + 2 * HOUR, mfePips: 5, maePips: 10, ambiguous: false,
  });
});

test('same candle: SL and TP1 in one candle count as SL and the trade is flagged ambiguous', () => {
  const t = both([START, [100, 100.5, 99.5, 100.2], [100, 101.5, 98.5, 100]]);
  assert.deepEqual(pick(t, 'outcome', 'tp1Result', 'tp2Result', 'ambiguous', 'tp1Time'), { outcome: 'sl', tp1Result: 'loss', tp2Result: 'loss', ambiguous: true, tp1Time: null });
});

test('TP2 is judged against the original SL after TP1; SL with TP2 in one candle is a loss', () => {
  const a = both([START, [100, 101.1, 99.8, 101], [101, 101.2, 98.9, 99]]);
  assert.deepEqual(pick(a, 'outcome', 'tp1Result', 'tp2Result', 'rTp1', 'rTp2', 'ambiguous'), { outcome: 'tp1', tp1Result: 'win', tp2Result: 'loss', rTp1: 1, rTp2: -1, ambiguous: false });
  const b = both([START, [100, 101.1, 99.8, 101], [101, 102.5, 98.5, 100]]);
  assert.deepEqual(pick(b, 'outcome', 'tp2Result', 'ambiguous'), { outcome: 'tp1', tp2Result: 'loss', ambiguous: true });
  const c = both([START, [100, 102.1, 99.8, 102]]);
  assert.deepEqual(pick(c, 'outcome', 'tp1Time', 'tp2Time'), { outcome: 'tp2', tp1Time: T0 + HOUR, tp2Time: T0 + HOUR }, 'TP1 and TP2 in one candle both win');
});

test('open at the end: reported with open results and 0 R', () => {
  const t = both([START, [100, 100.6, 99.6, 100.3], [100.3, 100.5, 99.7, 100]]);
  assert.deepEqual(pick(t, 'outcome', 'tp1Result', 'tp2Result', 'rTp1', 'rTp2', 'mfePips', 'maePips'), { outcome: 'open', tp1Result: 'open', tp2Result: 'open', rTp1: 0, rTp2: 0, mfePips: 6, maePips: 4 });
  const half = both([START, [100, 101.2, 99.6, 101]]);
  assert.deepEqual(pick(half, 'outcome', 'tp1Result', 'tp2Result', 'rTp2'), { outcome: 'tp1', tp1Result: 'win', tp2Result: 'open', rTp2: 0 });
});

test('entry candle of a resting fill: only SL can count there', () => {
  const tpIgnored = both([START, [100.5, 101.5, 99.8, 100.2], [100.2, 100.5, 99.9, 100.1]], { orderPrice: 100, resting: true });
  assert.deepEqual(pick(tpIgnored, 'outcome', 'tp1Time', 'mfePips', 'maePips'), { outcome: 'open', tp1Time: null, mfePips: 5, maePips: 2 });
  const slCounts = both([START, [100.5, 100.6, 98.7, 99.2]], { orderPrice: 100, resting: true });
  assert.deepEqual(pick(slCounts, 'outcome', 'slTime', 'ambiguous', 'mfePips', 'maePips'), { outcome: 'sl', slTime: T0 + HOUR, ambiguous: false, mfePips: 0, maePips: 10 });
  const bothOnFill = both([START, [100.5, 101.5, 98.7, 99.2]], { orderPrice: 100, resting: true });
  assert.deepEqual(pick(bothOnFill, 'outcome', 'ambiguous'), { outcome: 'sl', ambiguous: true });
  const signal = both([START, [100, 101.5, 99.8, 100.2]]);
  assert.equal(signal.outcome, 'tp1', 'an entry at the open sees the whole candle');
});

test('a gap fill keeps the bracket on the resting price; excursions are measured from the fill', () => {
  const t = both([START, [99.8, 100.1, 99.5, 100], [100, 101.05, 99.9, 101]], { orderPrice: 100, entryPrice: 99.8, resting: true });
  assert.deepEqual(pick(t, 'orderPrice', 'entryPrice', 'sl', 'tp1', 'riskPips', 'outcome', 'rTp1', 'maePips'), { orderPrice: 100, entryPrice: 99.8, sl: 99, tp1: 101, riskPips: 10, outcome: 'tp1', rTp1: 1, maePips: 3 });
  assert.ok(Math.abs(t.mfePips - 12.5) < 1e-9);
});

test('internal SL: at the setup stop, TP1 at 1R and TP2 at 2R unless given; no risk, no trade', () => {
  const rows: Bar[] = [START, [100, 100.7, 99.8, 100.6], [100.6, 101.3, 100.5, 101.2]];
  const internal: ExitRules = { slMode: 'internal', pipSize: 0.1 };
  const t = both(rows, { stop: 99.4 }, internal);
  assert.deepEqual(pick(t, 'sl', 'tp1', 'tp2', 'riskPips', 'outcome', 'rTp1', 'rTp2'), { sl: 99.4, tp1: 100.6, tp2: 101.2, riskPips: 6, outcome: 'tp2', rTp1: 1, rTp2: 2 });
  const given = both(rows, { stop: 99.4 }, { ...internal, tp1Pips: 10, tp2Pips: 12 });
  assert.deepEqual(pick(given, 'tp1', 'tp2', 'rTp1', 'rTp2', 'outcome'), { tp1: 101, tp2: 101.2, rTp1: 1.666666667, rTp2: 2, outcome: 'tp2' });
  for (const side of [1, -1] as const) {
    const none = simulate(rows, { stop: 100.2 }, internal, side);
    assert.equal(none.trades.length, 0);
    assert.equal(none.skippedNoRisk, 1);
  }
});

test('external TP2 defaults to twice TP1; missing SL or TP1 is an error', () => {
  const t = both([START, [100, 100.5, 99.5, 100.2]], {}, { slMode: 'external', slPips: 10, tp1Pips: 15, pipSize: 0.1 });
  assert.equal(t.tp2, 103);
  assert.throws(() => simulate([START, START], {}, { slMode: 'external', tp1Pips: 10, pipSize: 0.1 }), /invalid sl_pips: missing/);
  assert.throws(() => simulate([START, START], {}, { slMode: 'external', slPips: 10, tp1Pips: -1, pipSize: 0.1 }), /invalid tp1_pips: -1/);
});

test('entry hour, weekday (0 = Monday) and session are UTC', () => {
  const cases: [number, number, number, string][] = [
    [Date.UTC(2024, 0, 1, 6), 7, 0, 'Asie'],
    [Date.UTC(2024, 0, 1, 7), 8, 0, 'Londres'],
    [Date.UTC(2024, 0, 2, 12), 13, 1, 'Londres/New York'],
    [Date.UTC(2024, 0, 5, 16), 17, 4, 'New York'],
    [Date.UTC(2024, 0, 7, 21), 22, 6, 'Hors session'],
    [Date.UTC(2024, 0, 7, 22), 23, 6, 'Hors session'],
    [Date.UTC(2024, 0, 7, 23), 0, 0, 'Asie'],
  ];
  for (const [start, hour, weekday, session] of cases) {
    const t = simulate([START, START], {}, EXTERNAL, 1, undefined, { start }).trades[0];
    assert.deepEqual(pick(t, 'hour', 'weekday', 'session'), { hour, weekday, session });
  }
});

// Lower-timeframe candles: four M15 candles inside H1 candle 2 (the ambiguous one).
const AMBIGUOUS: Bar[] = [START, [100, 100.5, 99.5, 100.2], [100, 101.5, 98.5, 100], [100, 100.2, 99.8, 100]];

test('ambiguity resolved by smaller candles: TP1 first, then SL', () => {
  const t = both(AMBIGUOUS, {}, EXTERNAL, [[100, 101.2, 99.9, 101.1], [101.1, 101.3, 98.5, 98.8], [98.8, 99.5, 98.6, 99], [99, 100, 98.9, 100]]);
  assert.deepEqual(pick(t, 'outcome', 'ambiguous', 'resolvedTp1Result', 'resolvedTp2Result'), { outcome: 'sl', ambiguous: true, resolvedTp1Result: 'win', resolvedTp2Result: 'loss' });
  const r = simulate(AMBIGUOUS, {}, EXTERNAL, 1, [[100, 101.2, 99.9, 101.1], [101.1, 101.3, 98.5, 98.8], [98.8, 99.5, 98.6, 99], [99, 100, 98.9, 100]]);
  assert.deepEqual(r.ambiguity, { count: 1, resolved: 1, unresolved: 0 });
});

test('ambiguity resolved by smaller candles: SL first stays a loss, and is decided', () => {
  const r = simulate(AMBIGUOUS, {}, EXTERNAL, -1, [[100, 100.2, 98.5, 98.7], [98.7, 101.5, 98.6, 101], [101, 101.1, 99.9, 100], [100, 100.1, 99.9, 100]]);
  assert.deepEqual(pick(r.trades[0], 'resolvedTp1Result', 'resolvedTp2Result'), { resolvedTp1Result: 'loss', resolvedTp2Result: 'loss' });
  assert.deepEqual(r.ambiguity, { count: 1, resolved: 1, unresolved: 0 });
});

test('ambiguity inside one smaller candle, or no smaller candles: left undecided (null) and counted unresolved', () => {
  const one = simulate(AMBIGUOUS, {}, EXTERNAL, 1, [[100, 101.5, 98.5, 100], [100, 100.1, 99.9, 100]]);
  assert.deepEqual(pick(one.trades[0], 'outcome', 'resolvedTp1Result', 'resolvedTp2Result'), { outcome: 'sl', resolvedTp1Result: null, resolvedTp2Result: null });
  assert.deepEqual(one.ambiguity, { count: 1, resolved: 0, unresolved: 1 });
  const none = simulate(AMBIGUOUS, {}, EXTERNAL, 1, []);
  assert.deepEqual(none.ambiguity, { count: 1, resolved: 0, unresolved: 1 });
  assert.equal(none.trades[0].resolvedTp1Result, null);
});

test('TP1 decided by smaller candles, TP2 still ambiguous inside one of them: only TP1 resolved', () => {
  const r = simulate(AMBIGUOUS, {}, EXTERNAL, 1, [[100, 101.2, 99.9, 101.1], [101.1, 102.5, 98.5, 98.8], [98.8, 99, 98.6, 99], [99, 100, 98.9, 100]]);
  assert.deepEqual(pick(r.trades[0], 'resolvedTp1Result', 'resolvedTp2Result'), { resolvedTp1Result: 'win', resolvedTp2Result: null });
  assert.deepEqual(r.ambiguity, { count: 1, resolved: 0, unresolved: 1 });
});

test('resolved results are null for clear trades and without smaller candles', () => {
  const plain = simulate(AMBIGUOUS).trades[0];
  assert.deepEqual(pick(plain, 'ambiguous', 'resolvedTp1Result', 'resolvedTp2Result'), { ambiguous: true, resolvedTp1Result: null, resolvedTp2Result: null });
  const clear = simulate([START, [100, 101.1, 99.8, 101], [101, 102.5, 100.9, 102]], {}, EXTERNAL, 1, [[101, 101, 101, 101]]).trades[0];
  assert.deepEqual(pick(clear, 'ambiguous', 'resolvedTp1Result', 'resolvedTp2Result'), { ambiguous: false, resolvedTp1Result: null, resolvedTp2Result: null });
});

test('ambiguous fill candle: the walk starts at the smaller candle where the resting order fills', () => {
  // Fill candle is candle 2 here (index 2), order at 100; its M15 candles: TP1 high before the fill
  // (ignored), the fill, then TP1, then SL.
  const rows: Bar[] = [START, [100.5, 100.8, 100.3, 100.5], [100.5, 101.5, 98.5, 100], [100, 100.2, 99.8, 100]];
  const ltf: Bar[] = [[100.5, 101.5, 100.4, 101.4], [101.4, 101.4, 99.9, 100.1], [100.1, 101.2, 100, 101.1], [101.1, 101.2, 98.5, 98.6]];
  const t = both(rows, { index: 2, orderPrice: 100, resting: true }, EXTERNAL, ltf);
  assert.deepEqual(pick(t, 'outcome', 'ambiguous', 'resolvedTp1Result', 'resolvedTp2Result'), { outcome: 'sl', ambiguous: true, resolvedTp1Result: 'win', resolvedTp2Result: 'loss' });
  const tpBeforeFillOnly: Bar[] = [[100.5, 101.5, 100.4, 101.4], [100.5, 100.5, 98.5, 98.6], [98.6, 99, 98.5, 99], [99, 99.1, 98.9, 99]];
  const u = both(rows, { index: 2, orderPrice: 100, resting: true }, EXTERNAL, tpBeforeFillOnly);
  assert.deepEqual(pick(u, 'resolvedTp1Result', 'resolvedTp2Result'), { resolvedTp1Result: 'loss', resolvedTp2Result: 'loss' });
});
