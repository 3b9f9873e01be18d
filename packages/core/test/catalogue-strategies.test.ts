import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PARAM_NAMES, STRATEGIES, STRATEGY_KEYS, getParam, getStrategy, paramDefaults } from '@bt/core/catalogue';
import type { FilterKind } from '@bt/core/catalogue';

const OFFICIAL_KEYS = [
  'ob_pullback_pure', 'ob_pullback_pure_ema_simple', 'ob_pullback_pure_rsi', 'ob_pullback_pure_ema_simple_rsi',
  'ob_pullback_pure_tendance_ema', 'ob_pullback_pure_tendance_ema_rsi',
  'ob_pullback_gap', 'ob_pullback_gap_ema_simple', 'ob_pullback_gap_rsi', 'ob_pullback_gap_tendance_ema', 'ob_pullback_gap_ema_rsi',
  'fvg_pullback_multi', 'fvg_pullback_multi_ema', 'fvg_pullback_multi_rsi',
  'fvg_pullback_tendance_ema', 'fvg_pullback_tendance_ema_rsi',
  'fvg_impulsive', 'fvg_impulsive_ema', 'fvg_impulsive_rsi', 'fvg_impulsive_rsi_ema',
  'englobante_entry', 'englobante_entry_ema', 'englobante_entry_rsi', 'englobante_entry_rsi_ema',
];

test('exactly the 24 official strategy keys of docs/product.md §2.3 / docs/product.md §3.3', () => {
  assert.equal(STRATEGIES.length, 24);
  assert.deepEqual([...STRATEGY_KEYS].sort(), [...OFFICIAL_KEYS].sort());
});

/** The filters a key spells, read from its suffix independently of the catalogue's table. */
function filtersFromKey(key: string): FilterKind[] {
  const suffix = key.replace(/^(ob_pullback_pure|ob_pullback_gap|fvg_pullback_multi|fvg_pullback|fvg_impulsive|englobante_entry)/, '');
  const filters: FilterKind[] = [];
  for (const word of suffix.match(/tendance_ema|ema_simple|ema|rsi/g) ?? []) {
    filters.push(word === 'rsi' ? 'rsi' : word === 'tendance_ema' ? 'tendance_ema' : 'ema_simple');
  }
  return filters;
}

test("every strategy's family, entry mode and filters follow its key", () => {
  for (const s of STRATEGIES) {
    const family = s.key.startsWith('fvg_pullback_') ? 'fvg_pullback_multi' : OFFICIAL_KEYS.find((k) => s.key.startsWith(k) && ['ob_pullback_pure', 'ob_pullback_gap', 'fvg_impulsive', 'englobante_entry'].includes(k));
    assert.equal(s.family, family, s.key);
    assert.equal(s.entryMode, ['fvg_impulsive', 'englobante_entry'].includes(s.family) ? 'signal' : 'pullback', s.key);
    assert.deepEqual([...s.filters], filtersFromKey(s.key), s.key);
  }
  assert.deepEqual(getStrategy('ob_pullback_gap_ema_rsi').filters, ['ema_simple', 'rsi']);
  assert.deepEqual(getStrategy('fvg_impulsive_rsi_ema').filters, ['rsi', 'ema_simple']);
  assert.deepEqual(getStrategy('fvg_pullback_tendance_ema_rsi').filters, ['tendance_ema', 'rsi']);
  assert.equal(getStrategy('fvg_pullback_tendance_ema').family, 'fvg_pullback_multi');
});

test('every parameter a strategy reads is declared, and its signature matches its family and filters', () => {
  const pullback = ['min_wait_candles', 'max_wait_candles', 'allow_multiple_entries', 'min_overlap_ratio', 'max_touch', 'min_pips', 'confirm_candle', 'time_key'];
  const byFilter: Record<FilterKind, string[]> = { rsi: ['rsi_key', 'rsi_threshold'], ema_simple: ['ema_key'], tendance_ema: ['ema_fast', 'ema_slow'] };
  const used = new Set<string>();
  for (const s of STRATEGIES) {
    for (const name of s.params) {
      assert.ok(PARAM_NAMES.includes(name), `${s.key} reads undeclared ${name}`);
      used.add(name);
    }
    assert.equal(new Set(s.params).size, s.params.length, `${s.key} lists a parameter twice`);
    const familyParams =
      s.family === 'fvg_impulsive' ? ['min_pips', 'confirm_candle', 'time_key']
      : s.family === 'englobante_entry' ? ['confirm_candle', 'time_key']
      : s.family.startsWith('ob_') ? [...pullback, 'ob_side'] : pullback;
    assert.deepEqual([...s.params], [...familyParams, ...s.filters.flatMap((f) => byFilter[f])], s.key);
  }
  assert.deepEqual([...used].sort(), [...PARAM_NAMES].sort(), 'every declared parameter is read by some strategy');
});

test('every strategy has French texts and entry rules that cover its filters', () => {
  for (const s of STRATEGIES) {
    for (const field of ['label', 'short', 'description'] as const) assert.ok(s[field].length > 10, `${s.key}.${field}`);
    assert.ok(s.entryRules.length >= 3, s.key);
    if (s.filters.includes('rsi')) assert.ok(s.entryRules.some((r) => r.includes('rsi_threshold')), s.key);
    if (s.filters.includes('ema_simple')) assert.ok(s.entryRules.some((r) => r.includes('ema_key')), s.key);
    if (s.filters.includes('tendance_ema')) assert.ok(s.entryRules.some((r) => r.includes('ema_fast')), s.key);
  }
  assert.equal(new Set(STRATEGIES.map((s) => s.label)).size, 24, 'labels are distinct');
  assert.equal(getStrategy('englobante_entry_rsi_ema').label, 'Englobante 3 bougies + RSI + EMA simple');
});

test('getStrategy names the bad key and suggests the closest official one', () => {
  assert.throws(() => getStrategy('ob_pulback_pure_rsi'), {
    message: 'invalid strategy: "ob_pulback_pure_rsi" (not one of the 24 official strategies; did you mean ob_pullback_pure_rsi?)',
  });
  assert.throws(() => getStrategy('fvg_impulsif_rsi'), /did you mean fvg_impulsive_rsi\?/);
  assert.equal(getStrategy(' FVG_IMPULSIVE ').key, 'fvg_impulsive');
});

test('rsi_threshold: declared 40, 50 for the engulfing and impulsive families', () => {
  assert.equal(getParam('rsi_threshold').default, 40);
  assert.equal(paramDefaults('ob_pullback_pure_rsi').rsi_threshold, 40);
  assert.equal(paramDefaults('fvg_pullback_tendance_ema_rsi').rsi_threshold, 40);
  assert.equal(paramDefaults('fvg_impulsive_rsi').rsi_threshold, 50);
  assert.equal(paramDefaults('englobante_entry_rsi_ema').rsi_threshold, 50);
  assert.deepEqual(paramDefaults('englobante_entry'), { confirm_candle: false, time_key: 'time' });
});
