// Golden results: every official strategy on real fixtures, stored under fixtures/golden/ and
// compared trade by trade. They change only deliberately:
//   UPDATE_GOLDEN=1 GOLDEN_NOTE="why the results moved" npm run golden:update -w @bt/core
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { goldenFilePath, updateGoldenFile } from '@bt/core/node';
import { SCENARIOS, computeGolden, formatGolden, plan, type GoldenFile } from './golden-cases.js';

const update = process.env.UPDATE_GOLDEN === '1';

for (const scenario of SCENARIOS) {
  test(`golden results: ${scenario.name} (every strategy on ${scenario.file})`, async () => {
    const path = goldenFilePath(plan, scenario);
    const now = await computeGolden(scenario);
    const stored: GoldenFile | null = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
    if (update) {
      const note = process.env.GOLDEN_NOTE?.trim();
      if (!note) throw new Error('UPDATE_GOLDEN=1 needs GOLDEN_NOTE="why the results moved" (it is kept in the file)');
      writeFileSync(path, formatGolden(updateGoldenFile(stored, now, note).file));
      return;
    }
    assert.ok(stored, `missing ${path}: create it with UPDATE_GOLDEN=1 GOLDEN_NOTE="..."`);
    assert.equal(Object.keys(now.strategies).length, 24);
    assert.deepEqual(Object.keys(stored.strategies), Object.keys(now.strategies));
    let trades = 0;
    for (const [key, expected] of Object.entries(stored.strategies)) {
      const actual = now.strategies[key];
      const { rows: expectedRows, ...expectedSummary } = expected;
      const { rows: actualRows, ...actualSummary } = actual;
      for (let i = 0; i < Math.max(expectedRows.length, actualRows.length); i++) {
        assert.deepEqual(actualRows[i], expectedRows[i], `${scenario.name} ${key}: trade ${i + 1} (columns ${stored.columns.join(', ')})`);
      }
      assert.deepEqual(actualSummary, expectedSummary, `${scenario.name} ${key}: summary`);
      trades += actual.trades;
    }
    assert.ok(trades > 1000, `${trades} trades compared`);
  });
}
