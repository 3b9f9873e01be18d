import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCandlesFile } from '@bt/core/node';
import { optimize } from '@bt/core/optimize';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('an exit block of 140,000 combinations sharing their entries is judged, not a stack overflow', { timeout: 120_000 }, async () => {
  const { candles } = await readCandlesFile(join(import.meta.dirname, '../../../fixtures/official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' });
  // Every combination shares the one entry setting: one batch, whose results were push(...)-ed at once.
  const result = optimize(candles, { strategy: 'englobante_entry', symbol: 'EURUSD', space: { slPips: range(1, 140), tp1Pips: range(1, 1000) } });
  assert.equal(result.evaluated, 140_000);
  assert.equal(result.failed, 0);
  assert.equal(new Set(result.ranked.map((r) => r.index)).size, 140_000);
});
