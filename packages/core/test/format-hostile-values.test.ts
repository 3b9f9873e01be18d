import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCellFr, formatDateTimeFr, formatDayFr, formatPeriodFr, formatPriceFr, MISSING, parseWinrate, priceDecimals, TRADE_HEADERS } from '@bt/core/format';

const MARCH = Date.UTC(2023, 2, 1);

test('a pip size that is no size gives 10 decimals, not a RangeError from Intl', () => {
  for (const pip of [0, -0.0001, Number.NaN, -Infinity]) {
    assert.equal(priceDecimals(pip), 10, String(pip));
    assert.equal(formatPriceFr(1.5, pip), '1,5000000000', String(pip));
  }
  // A trades sheet's price cell with a Config pip size of -1 (the statistics modal's path).
  assert.equal(formatCellFr(1.07219, TRADE_HEADERS.entryPrice, { pipSize: -1 }), '1,0721900000');
  assert.equal(priceDecimals(0.0001), 5);
  assert.equal(priceDecimals(Infinity), 1);
});

test('an instant no Date holds prints as missing, not a RangeError', () => {
  for (const ms of [Number.NaN, Infinity, -Infinity, 8.64e15 + 1]) {
    assert.equal(formatDayFr(ms), MISSING, String(ms));
    assert.equal(formatDateTimeFr(ms), MISSING, String(ms));
    assert.equal(formatPeriodFr(ms, MARCH), `${MISSING} – 1er mars 2023`, String(ms));
  }
  assert.equal(formatDayFr(MARCH), '1er mars 2023');
  assert.equal(formatDateTimeFr(MARCH + 14 * 3_600_000), '01/03/2023 14:00');
  assert.equal(formatPeriodFr(MARCH, Date.UTC(2023, 2, 31)), '1er–31 mars 2023');
});

test('parseWinrate: a long run of spaces inside a text is refused in linear time; French spacing still reads', { timeout: 30_000 }, () => {
  const started = Date.now();
  assert.equal(parseWinrate(`5${' '.repeat(500_000)}5 %`), null);
  assert.equal(parseWinrate(`5${'\u202f'.repeat(500_000)}5`), null);
  // A hang guard, not a speed target: the quadratic strip took 1.5 s at 40,000 spaces (minutes at
  // 500,000), the linear one a few milliseconds; 10 s is far from both, even on a loaded machine.
  assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
  assert.equal(parseWinrate('\u00a057,5\u202f%\u00a0'), 57.5);
  assert.equal(parseWinrate(' 0.62 '), 62);
  assert.equal(parseWinrate('0.5 %'), 0.5);
});
