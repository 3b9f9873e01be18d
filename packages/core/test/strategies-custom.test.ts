import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signalPlan, type SignalStrategy } from '@bt/core/strategies';
import { runEngine } from '../src/backtest/engine.js';
import { bars, flat, type Bar } from './engine-fixtures.js';

const ROWS: Bar[] = [flat(100), [100, 100.5, 99.8, 100.4], flat(100.4), [100.4, 100.6, 99.2, 99.5], flat(99.5), [99.5, 101.6, 99.4, 101.5], flat(101.5), flat(101.5), flat(101.5)];
const EXITS = { slMode: 'external', slPips: 10, tp1Pips: 10, tp2Pips: 20, pipSize: 0.1 } as const;

test('a signal function plugs into the pipeline: entry at the next open, exits as usual', () => {
  const seen: unknown[] = [];
  const strategy: SignalStrategy = {
    key: 'my_breakout',
    signals(candles, params) {
      seen.push(params.k);
      const out = [];
      for (let i = 1; i < candles.length; i++) if (candles.close[i] > candles.close[i - 1] + 0.3) out.push({ index: i, side: 'buy' as const });
      return out;
    },
  };
  const run = runEngine(bars(ROWS), { plan: signalPlan(strategy), params: { k: 7 }, exits: EXITS });
  assert.deepEqual(seen, [7]);
  assert.deepEqual(run.simulation.trades.map((t) => [t.entryIndex, t.side, t.entryPrice, t.outcome]), [[2, 'buy', 100.4, 'sl'], [6, 'buy', 101.5, 'open']]);
});

test('a pullback signal function rests orders in its zones, with the same entry rules and filters', () => {
  const strategy: SignalStrategy = {
    key: 'zone_fn',
    entryMode: 'pullback',
    filters: ['rsi'],
    signals: () => [{ index: 1, side: 'buy', zone: { top: 99.6, bottom: 99 } }],
  };
  const rsi = [50, 50, 50, 30, 50, 50, 50, 50, 50];
  const internal = { slMode: 'internal', pipSize: 0.1 } as const;
  const run = runEngine(bars(ROWS, { extra: { RSI: rsi } }), { plan: signalPlan(strategy), params: { min_wait_candles: 1, rsi_threshold: 40 }, exits: internal });
  // Touch at 3 refused (RSI 50 on 2), touch at 4 allowed (RSI 30 on 3): it opens at 99.5, below the order.
  assert.deepEqual(run.simulation.trades.map((t) => [t.entryIndex, t.orderPrice, t.entryPrice, t.sl, t.tp1, t.tp2]), [[4, 99.6, 99.5, 99, 100.2, 100.8]]);
  const limited = runEngine(bars(ROWS, { extra: { RSI: rsi } }), { plan: signalPlan(strategy), params: { min_wait_candles: 1, rsi_threshold: 40, max_touch: 1 }, exits: internal });
  assert.equal(limited.simulation.trades.length, 0);
  const open = runEngine(bars(ROWS, { extra: { RSI: [50, 50, 30, 50, 50, 50, 50, 50, 50] } }), { plan: signalPlan(strategy), params: { min_wait_candles: 1, rsi_threshold: 40 }, exits: internal });
  assert.deepEqual(open.simulation.trades.map((t) => [t.entryIndex, t.orderPrice, t.sl, t.tp1, t.tp2, t.outcome]), [[3, 99.6, 99, 100.2, 100.8, 'tp2']]);
});

test('signals are checked: index, side, zone; a pullback signal needs a zone', () => {
  const run = (signals: unknown[], entryMode: 'signal' | 'pullback' = 'signal') =>
    runEngine(bars(ROWS), { plan: signalPlan({ key: 'bad', entryMode, signals: () => signals as never }), params: {}, exits: EXITS });
  assert.throws(() => run([{ index: 99, side: 'buy' }]), /invalid signal 1 of bad: index 99 \(expected an integer 0..8\)/);
  assert.throws(() => run([{ index: 1, side: 'long' }]), /invalid signal 1 of bad: side "long"/);
  assert.throws(() => run([{ index: 1, side: 'buy', zone: { top: 1, bottom: 2 } }]), /expected finite top > bottom/);
  assert.throws(() => run([{ index: 1, side: 'buy' }], 'pullback'), /needs a zone/);
  assert.throws(() => signalPlan({ key: '../x', signals: () => [] }), /invalid strategy key/);
  assert.deepEqual(run([{ index: 5, side: 'sell' }, { index: 1, side: 'buy' }]).simulation.trades.map((t) => t.entryIndex), [2, 6], 'signals in any order');
});
