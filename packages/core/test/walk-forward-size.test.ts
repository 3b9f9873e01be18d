// A walk-forward's whole work (folds × combinations) is bounded before any run (docs/engine.md §14).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkWalkForwardSize, MAX_WALK_EVALUATIONS, walkForward } from '@bt/core/optimize';
import { readCandlesFile } from '@bt/core/node';

const DAY = 86_400_000;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('folds × combinations past 2,000,000 in-sample runs are refused before the first one', { timeout: 60_000 }, async () => {
  const { candles } = await readCandlesFile(join(import.meta.dirname, '../../../fixtures/official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' });
  const started = Date.now();
  // 200,000 combinations (the most a grid holds) over weekly folds: about 40 folds, 8 million runs.
  assert.throws(
    () => walkForward(candles, { strategy: 'englobante_entry', symbol: 'EURUSD', space: { slPips: range(1, 200), tp1Pips: range(1, 1000) }, folds: { mode: 'rolling', inSampleMs: 30 * DAY, outOfSampleMs: 7 * DAY } }),
    /^Error: invalid walk-forward: \d+ folds × 200,000 combinations are [\d,]+ in-sample runs, more than 2,000,000: use fewer folds/,
  );
  // A hang guard, not a speed target: refused in about 100 ms, while 8 million runs take hours, so
  // 20 s holds on a machine loaded twenty times over.
  assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
});

test('the bound itself: at the limit passes, one more is refused', () => {
  assert.equal(MAX_WALK_EVALUATIONS, 2_000_000);
  checkWalkForwardSize(10, 200_000);
  checkWalkForwardSize(500, 4_000);
  assert.throws(() => checkWalkForwardSize(500, 4_001), /500 folds × 4,001 combinations are 2,000,500 in-sample runs/);
});
