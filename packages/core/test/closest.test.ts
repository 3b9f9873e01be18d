import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SUGGESTION_MAX_INPUT, STRATEGY_KEYS, closest, editDistance, getStrategy } from '../src/catalogue/index.js';
import { PARAM_NAMES } from '../src/catalogue/params.js';
import { normalizeParams } from '../src/params/index.js';

/** The plain dynamic programme, unbounded: what the bounded one must agree with. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

test('editDistance with a bound: exact up to it, bound + 1 past it', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const word = () => Array.from({ length: Math.floor(random() * 9) }, () => 'abc'[Math.floor(random() * 3)]).join('');
  for (let n = 0; n < 2000; n++) {
    const a = word();
    const b = word();
    const exact = reference(a, b);
    assert.equal(editDistance(a, b), exact, `${a} ${b}`);
    for (const bound of [0, 1, 2, 3]) assert.equal(editDistance(a, b, bound), Math.min(exact, bound + 1), `${a} ${b} ≤ ${bound}`);
  }
});

test('closest: the same answers as comparing every candidate (first one on ties, within the distance)', () => {
  const plain = (value: string, candidates: readonly string[], max = Infinity) => {
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const c of candidates) {
      const d = reference(value.toLowerCase(), c.toLowerCase());
      if (d < bestDistance && d <= max) [best, bestDistance] = [c, d];
    }
    return best;
  };
  for (const value of ['fvg', 'FVG_pullbak', 'englobante', 'sl_pip', 'rsi', '', 'x', 'max_wait_candle', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz']) {
    for (const max of [Infinity, 0, 1, 2, 5]) {
      assert.equal(closest(value, STRATEGY_KEYS, max), plain(value, STRATEGY_KEYS, max), `${value} ${max}`);
      assert.equal(closest(value, PARAM_NAMES, max), plain(value, PARAM_NAMES, max), `${value} ${max} (params)`);
    }
  }
  assert.equal(closest('ab', ['ax', 'ay']), 'ax', 'the first one on ties');
});

test('a long unknown name costs no time: no suggestion past SUGGESTION_MAX_INPUT, candidates too far in length skipped', () => {
  const huge = 'x'.repeat(1024 * 1024);
  let started = performance.now();
  assert.equal(closest(huge, STRATEGY_KEYS), undefined);
  assert.throws(() => getStrategy(huge), (err: Error) => err.message.startsWith('invalid strategy') && !err.message.includes('did you mean'));
  assert.throws(() => normalizeParams({ [huge]: 1 }, { strategy: 'fvg_impulsive', unknown: 'error' }), (err: Error) => !err.message.includes('did you mean'));
  assert.ok(performance.now() - started < 200, `${performance.now() - started} ms`);
  // Under the cap, a bound of 2 edits compares no candidate of another length by more than 2.
  const long = 'y'.repeat(SUGGESTION_MAX_INPUT);
  started = performance.now();
  for (let i = 0; i < 200; i++) assert.equal(closest(long, PARAM_NAMES, 2), undefined);
  assert.ok(performance.now() - started < 200, `${performance.now() - started} ms`);
  assert.equal(closest('fvg_pullbak_multi', STRATEGY_KEYS.map((k) => k), 2), 'fvg_pullback_multi');
});
