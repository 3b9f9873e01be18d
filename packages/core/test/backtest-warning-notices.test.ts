// Every warning a backtest carries exists twice: core's English sentence (`warnings`, what the CLI
// prints) and the same as a code and values (`notices`, what the server says in French).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runBacktest, backtestResultJson } from '@bt/core';
import { BACKTEST_WARNING_CODES, backtestWarningText } from '@bt/core/backtest';
import { normalizeParams } from '@bt/core/params';
import { readCandlesFile } from '@bt/core/node';

const fixtures = join(import.meta.dirname, '../../../fixtures');

test('notices give the warnings as codes, in their order, and read back as the same English sentences', async () => {
  const { candles } = await readCandlesFile(join(fixtures, 'official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' });
  const r = await runBacktest(candles, {
    strategy: 'fvg_pullback_multi_rsi', symbol: 'EURUSD', slPips: 1, tp1Pips: 1, from: Date.UTC(2017, 5, 1), to: Date.UTC(2017, 7, 1), params: { nonsense: 1, ema_fast: 20 }, unknownParams: 'warn',
  });
  assert.deepEqual(r.notices.map((n) => n.code).sort(), ['param_ignored', 'param_ignored', 'sl_tp_same_candle']);
  assert.deepEqual(r.notices.map(backtestWarningText), r.warnings);
  assert.match(r.warnings.join('\n'), /trades had SL and a TP in the same candle, counted as SL/);
  for (const n of r.notices) assert.ok(BACKTEST_WARNING_CODES.includes(n.code), n.code);
  assert.equal('notices' in backtestResultJson(r), false, "the CLI's JSON keeps its fields (docs/cli.md)");
});

test("parameter notices: the English sentences stay those of the CLI's output", () => {
  const twice = normalizeParams({ min_wait_candle: 2, min_wait_candles: 3 }, { strategy: 'fvg_pullback_multi', unknown: 'warn' });
  assert.deepEqual(twice.notices.map((n) => n.code), ['param_given_twice']);
  assert.deepEqual(twice.warnings, ['invalid min_wait_candles: given twice with different values (min_wait_candle=2, min_wait_candles=3): kept min_wait_candles']);
  const ema = normalizeParams({ ema_fast: 'EMA_200', ema_slow: 'EMA_50' });
  assert.deepEqual(ema.notices, [{ code: 'ema_fast_slower', fast: 'EMA_200', slow: 'EMA_50' }]);
  assert.deepEqual(ema.warnings, ['ema_fast EMA_200 is slower than ema_slow EMA_50: the trend filter buys when EMA_200 is above EMA_50, as given']);
  const typo = normalizeParams({ min_wait_candel: 2 }, { strategy: 'fvg_pullback_multi', unknown: 'warn' });
  assert.match(typo.warnings[0], /^unknown parameter: "min_wait_candel" \(fvg_pullback_multi reads .*; did you mean min_wait_candles\?\): ignored$/);
});
