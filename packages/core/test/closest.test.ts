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

/**
 * `names` as closest sees them, counting the work done on them: `reads` counts the list's entries
 * taken, `characters` the characters of their lower-cased forms read (what the edit distance
 * compares). Counts, not milliseconds: a timed bound failed at random on a loaded CI machine.
 */
function counted(names: readonly string[]) {
  const count = { reads: 0, characters: 0 };
  const spelled = (text: string) =>
    new Proxy(new String(text), {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) count.characters++;
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const entry = (name: string) => ({ toLowerCase: () => spelled(name.toLowerCase()), toString: () => name });
  const list = new Proxy([...names], {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        count.reads++;
        return entry(target[Number(key)]);
      }
      return Reflect.get(target, key);
    },
  });
  return { list: list as unknown as readonly string[], count };
}

test('a long unknown name costs no work: no candidate read past SUGGESTION_MAX_INPUT, none compared when too far in length', () => {
  const huge = 'x'.repeat(1024 * 1024);
  const keys = counted(STRATEGY_KEYS);
  assert.equal(closest(huge, keys.list), undefined);
  assert.deepEqual(keys.count, { reads: 0, characters: 0 }, 'past the cap, the candidates are not even read');
  assert.throws(() => getStrategy(huge), (err: Error) => err.message.startsWith('invalid strategy') && !err.message.includes('did you mean'));
  assert.throws(() => normalizeParams({ [huge]: 1 }, { strategy: 'fvg_impulsive', unknown: 'error' }), (err: Error) => !err.message.includes('did you mean'));
  // Under the cap, a bound of 2 edits compares no candidate of another length by more than 2.
  const long = 'y'.repeat(SUGGESTION_MAX_INPUT);
  const params = counted(PARAM_NAMES);
  assert.equal(closest(long, params.list, 2), undefined);
  assert.deepEqual(params.count, { reads: PARAM_NAMES.length, characters: 0 }, 'each name read, none compared');
  // The counting sees a comparison when there is one.
  const near = counted(STRATEGY_KEYS);
  assert.equal(String(closest('fvg_pullbak_multi', near.list, 2)), 'fvg_pullback_multi');
  assert.ok(near.count.characters > 0);
  assert.equal(closest('fvg_pullbak_multi', STRATEGY_KEYS.map((k) => k), 2), 'fvg_pullback_multi');
});
