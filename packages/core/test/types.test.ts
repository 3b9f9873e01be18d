import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OHLCV_COLUMNS } from '@bt/core';

test('the official candle columns are the six exact, case-sensitive headers', () => {
  assert.deepEqual([...OHLCV_COLUMNS], ['Datetime', 'Open', 'High', 'Low', 'Close', 'Volume']);
});
