import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePipSize, PIP_SIZE_MAX, PIP_SIZE_MIN, pipSize } from '@bt/core/catalogue';
import { runBacktest } from '@bt/core/backtest';
import { validateExitRules } from '@bt/core/simulate';

const EXPECTED = 'expected a number from 0.000000001 to 10000';

test('a pip size override is read as a decimal number, as every consumer types it: not hex, binary, octal, Infinity or empty', () => {
  for (const text of ['0x10', '0b11', '0o7', 'Infinity', '', '   ', '1_000', '5 pips', '1,000.5']) {
    assert.throws(() => pipSize('ABCXYZ', text), { message: `invalid pip size: ${JSON.stringify(text)} (${EXPECTED})` }, text);
    assert.equal(parsePipSize(text), undefined, text);
  }
  assert.throws(() => pipSize('EURUSD', ''), { message: `invalid pip size: "" (${EXPECTED})` }, 'an empty override is not the catalogue value');
  // What people write: spaces around, a decimal comma, an exponent.
  assert.equal(pipSize('ABCXYZ', ' 0.5 '), 0.5);
  assert.equal(pipSize('ABCXYZ', '0,01'), 0.01);
  assert.equal(pipSize('ABCXYZ', '1e-3'), 0.001);
});

test('a pip size outside the range prices can be rounded to is refused, not run into NaN levels or all-open trades', () => {
  // 1e-300 made the rounding scale Infinity (levels NaN: every trade a loss); 1e5 made it 0 (every trade open).
  for (const value of [1e-300, 1e-10, 10_001, 1e5, Number.MAX_VALUE, Number.NaN, -1, 0]) {
    assert.throws(() => pipSize('ABCXYZ', value), { message: `invalid pip size: ${String(value)} (${EXPECTED})` }, String(value));
    assert.throws(() => validateExitRules({ slMode: 'external', slPips: 10, tp1Pips: 10, pipSize: value }), /invalid pip_size/, String(value));
  }
  assert.throws(() => pipSize('ABCXYZ', '9'.repeat(500)), { message: `invalid pip size: "${'9'.repeat(76)}... (${EXPECTED})` }, 'a long text is cut in the message');
  assert.equal(pipSize('ABCXYZ', PIP_SIZE_MIN), PIP_SIZE_MIN);
  assert.equal(pipSize('ABCXYZ', PIP_SIZE_MAX), PIP_SIZE_MAX);
});

test('runBacktest refuses an out-of-range numeric pip size before any work', async () => {
  const candles = { time: [0, 3_600_000], open: [1, 1], high: [1, 1], low: [1, 1], close: [1, 1] };
  await assert.rejects(
    () => runBacktest(candles as never, { strategy: 'fvg_pullback_multi', symbol: 'ABCXYZ', timeframe: 'H1', pipSize: 1e5, slMode: 'external', slPips: 10, tp1Pips: 10 }),
    /invalid pip size: 100000/,
  );
});
