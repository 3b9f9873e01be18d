import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CandleFileError, readCandlesJson } from '@bt/core/candles';

test('a freqtrade row nested a million arrays deep is a wrong_field_count problem, not a stack overflow', () => {
  const depth = 1_000_000;
  const text = `[${'['.repeat(depth)}${']'.repeat(depth)},[1,1,2,0.5,1.5,1]]`;
  assert.throws(
    () => readCandlesJson(text),
    (error: unknown) => {
      assert.ok(error instanceof CandleFileError, String(error));
      assert.deepEqual(error.problems.map((p) => [p.code, p.line]), [['wrong_field_count', 1]]);
      assert.match(error.problems[0].message, /^row 1: expected \[epoch_ms, open, high, low, close, volume\], got "an array nested too deep to show"$/);
      return true;
    },
  );
});
