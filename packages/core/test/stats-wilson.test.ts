import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wilsonInterval } from '@bt/core/stats';

function close(actual: readonly number[] | null, expected: readonly number[], digits = 4): void {
  assert.ok(actual, 'an interval');
  assert.deepEqual(actual.map((v) => Number(v.toFixed(digits))), expected);
}

test('Wilson 95 % interval matches published values', () => {
  close(wilsonInterval(8, 10), [0.4902, 0.9433]);
  close(wilsonInterval(4, 4), [0.5101, 1]);
  // 0 of 10: the upper bound is z^2 / (n + z^2).
  close(wilsonInterval(0, 10), [0, 0.2775]);
  close(wilsonInterval(10, 10), [0.7225, 1]);
  close(wilsonInterval(1, 2), [0.0945, 0.9055]);
  close(wilsonInterval(50, 100), [0.4038, 0.5962]);
});

test('Wilson interval is exact at the ends and mirrors k/n against (n-k)/n', () => {
  assert.equal(wilsonInterval(0, 7)![0], 0);
  assert.equal(wilsonInterval(7, 7)![1], 1);
  for (let n = 1; n <= 30; n++) {
    for (let k = 0; k <= n; k++) {
      const [low, high] = wilsonInterval(k, n)!;
      const [mLow, mHigh] = wilsonInterval(n - k, n)!;
      assert.ok(low >= 0 && high <= 1 && low <= k / n && k / n <= high, `${k}/${n}`);
      assert.ok(Math.abs(low - (1 - mHigh)) < 1e-12 && Math.abs(high - (1 - mLow)) < 1e-12, `${k}/${n} mirror`);
    }
  }
});

test('Wilson interval of no trial is null; bad counts are refused', () => {
  assert.equal(wilsonInterval(0, 0), null);
  assert.throws(() => wilsonInterval(3, 2), /invalid successes: 3/);
  assert.throws(() => wilsonInterval(-1, 2), /invalid successes: -1/);
  assert.throws(() => wilsonInterval(1, 2.5), /invalid n: 2.5/);
});
