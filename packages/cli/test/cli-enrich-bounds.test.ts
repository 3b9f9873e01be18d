// bt enrich's --rsi and --ema are bounded before the file is read (how many periods, how long),
// and the columns they add over the candles read are bounded before any is computed: each period
// is a Float64 column over every candle, and a long list asked for gigabytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkAddedSize, MAX_PERIODS, periods } from '../src/actions/enrich.js';
import { bt, EURUSD_H1, fixture, tempDir } from './helpers.js';

test('more than 16 periods in one flag is a usage error naming the flag, before the file is read', async () => {
  const tmp = tempDir();
  try {
    const out = join(tmp.dir, 'out.csv');
    const many = Array.from({ length: 5000 }, (_, i) => i + 1).join(',');
    // The data file does not exist: the flag is refused first.
    for (const flag of ['--rsi', '--ema']) {
      const r = await bt(['enrich', fixture('missing.csv'), '-o', out, flag, many]);
      assert.deepEqual(r, { code: 2, stdout: '', stderr: `bt: invalid ${flag}: 5,000 periods (expected at most 16: each is a column over every candle)\n` }, flag);
    }
    assert.equal(existsSync(out), false);
    // 16 is accepted and written.
    const sixteen = Array.from({ length: MAX_PERIODS }, (_, i) => i + 2).join(',');
    const ok = await bt(['enrich', EURUSD_H1, '-o', out, '--rsi', sixteen, '--no-ema']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /added RSI_2, .*RSI_17\n$/);
  } finally {
    tmp.remove();
  }
});

test('a refused period list is quoted cut, not echoed whole', () => {
  const text = `${'9'.repeat(200_000)}`;
  assert.throws(() => periods('--ema', text), (error: Error) => {
    assert.ok(error.message.length < 200, `${error.message.length} characters`);
    assert.equal(error.message, `invalid --ema: "${'9'.repeat(76)}... (expected whole periods from 1 to 100,000, comma-separated)`);
    return true;
  });
  assert.throws(() => periods('--rsi', '100001'), { message: 'invalid --rsi: "100001" (expected whole periods from 1 to 100,000, comma-separated)' });
  assert.deepEqual(periods('--rsi', '100000, 7'), [100_000, 7]);
});

test('the columns added over the candles read are bounded at 2 GB, a usage error naming the flags', () => {
  // 3 default columns over 89 million candles fit; 32 columns over ten million do not.
  assert.doesNotThrow(() => checkAddedSize(['RSI_14', 'EMA_50', 'EMA_200'], 89_000_000));
  assert.doesNotThrow(() => checkAddedSize([], 2_000_000_000));
  const names = Array.from({ length: 32 }, (_, i) => `EMA_${i + 1}`);
  assert.throws(() => checkAddedSize(names, 10_000_000), {
    message: 'invalid --rsi/--ema: 32 columns over 10,000,000 candles take about 2.4 GB, more than the 2.0 GB bt adds in one run (at most 26 fit): give fewer periods, or enrich the file in parts',
  });
  assert.throws(() => checkAddedSize(['RSI_14'], 300_000_000), /\(not one fits\)/);
});
