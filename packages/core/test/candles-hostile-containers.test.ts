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

test('a gzipped CSV is said to be compressed, not to look like UTF-16', async () => {
  const { gzipSync } = await import('node:zlib');
  const { readCandles } = await import('@bt/core/candles');
  const gz = new Uint8Array(gzipSync('Datetime,Open,High,Low,Close,Volume\n2024-01-01 00:00:00+00:00,1,2,0.5,1.5,10\n'));
  await assert.rejects(readCandles(gz), (error: unknown) => {
    assert.ok(error instanceof CandleFileError, String(error));
    assert.deepEqual(error.problems.map((p) => [p.code, p.line, p.message]), [['not_utf8', 1, 'line 1: the file is compressed with gzip, not a text CSV']]);
    return true;
  });
});
