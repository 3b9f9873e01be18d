import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_EVALUATED, ParameterSpace } from '@bt/core/optimize';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('a random search of a space past 2^53 combinations is refused at once, not an endless draw nor an empty one', () => {
  // 2e16 combinations: Floyd's j++ no longer moved j (the draw never ended).
  const past = new ParameterSpace('fvg_pullback_multi', { params: { min_wait_candles: range(0, 19), max_wait_candles: range(1, 1000), max_touch: range(1, 1000) }, slPips: range(1, 1000), tp1Pips: range(1, 1000), tp2Pips: range(1, 1000) }, 'external');
  // 1e18: size - count rounded to size, so the draw returned no combination at all.
  const far = new ParameterSpace('fvg_pullback_multi', { params: { min_wait_candles: range(0, 999), max_wait_candles: range(1, 1000), max_touch: range(1, 1000) }, slPips: range(1, 1000), tp1Pips: range(1, 1000), tp2Pips: range(1, 1000) }, 'external');
  for (const [space, shown] of [[far, '1,000,000,000,000,000,000'], [past, '20,000,000,000,000,000']] as const) {
    assert.throws(() => space.indices({ kind: 'random', count: 10, seed: 1 }), {
      message: `invalid space: ${shown} combinations (at most 9,007,199,254,740,991 for a random search: give fewer values)`,
    });
    assert.throws(() => space.indices({ kind: 'grid' }), /use a random search of fewer/);
  }
});

test('a random search just under 2^53 still draws distinct combinations, each one the space can name', () => {
  const space = new ParameterSpace('fvg_pullback_multi', { params: { min_wait_candles: range(0, 999), max_wait_candles: range(1, 9), max_touch: range(1, 1000) }, slPips: range(1, 1000), tp1Pips: range(1, 1000), tp2Pips: range(1, 1000) }, 'external');
  assert.ok(space.size <= Number.MAX_SAFE_INTEGER && space.size > 2 ** 52);
  const indices = space.indices({ kind: 'random', count: 1000, seed: 7 });
  assert.equal(new Set(indices).size, 1000);
  for (const i of indices) assert.equal(space.combination(i).index, i);
  assert.throws(() => space.indices({ kind: 'random', count: MAX_EVALUATED + 1 }), /expected a whole number from 1 to 200,000/);
});
