import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runBacktest } from '@bt/core/backtest';
import { readCandlesFile } from '@bt/core/node';

test('a period end the folder name cannot write (past year 9999, or no Date at all) is refused by name before the run', async () => {
  const { candles } = await readCandlesFile(join(import.meta.dirname, '../../../fixtures/official/EURUSD_H1_2017-2018.csv'), { symbol: 'EURUSD' });
  const base = { strategy: 'englobante_entry', symbol: 'EURUSD', slPips: 10, tp1Pips: 10 } as const;
  // 1e16: a bare RangeError (Invalid time value); 8.64e15 (year 275760): refused after the run.
  for (const [name, value] of [['from', 1e16], ['to', 1e16], ['from', -1e16], ['to', 8.64e15], ['to', 253_402_300_800_000], ['to', Infinity], ['from', Number.NaN]] as const) {
    await assert.rejects(runBacktest(candles, { ...base, [name]: value }), { name: 'Error', message: `invalid ${name}: ${JSON.stringify(value)} (expected ms since epoch, from year 0000 to 9999)` }, `${name} ${value}`);
  }
  const last = await runBacktest(candles, { ...base, to: 253_402_300_799_999 });
  assert.ok(last.statistics.global.trades > 0);
  assert.match(last.folder, /_20170419-99991231_sl10$/);
});
