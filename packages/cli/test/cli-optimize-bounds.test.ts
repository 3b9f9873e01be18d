// bt optimize and walk-forward with spaces and options at their limits: refused at once with a
// sentence (exit 2), never a hang or an empty result (docs/cli.md "bt optimize").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bt, EURUSD_H1 } from './helpers.js';

const BASE = ['optimize', '--data', EURUSD_H1, '--strategy', 'fvg_pullback_multi', '--no-progress', '--concurrency', '1'];

test('a random search of more than 2^53 combinations is a usage error at once, not an endless draw', { timeout: 60_000 }, async () => {
  const huge = ['--param', 'min_wait_candles=0..19', '--param', 'max_wait_candles=1..1000', '--param', 'max_touch=1..1000', '--sl', '1..1000', '--tp1', '1..1000', '--tp2', '1..1000'];
  const run = await bt([...BASE, ...huge, '--random', '10']);
  assert.deepEqual(run, { code: 2, stdout: '', stderr: 'bt: 20,000,000,000,000,000 combinations (at most 9,007,199,254,740,991 for a random search: give fewer values)\n' });
});
