import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PARAMS, getParam } from '@bt/core/catalogue';

test('the parameters of docs/product.md §2.3 with their types and declared defaults', () => {
  const table = Object.fromEntries(PARAMS.map((p) => [p.name, [p.type, p.default]]));
  assert.deepEqual(table, {
    min_wait_candles: ['int', 3],
    max_wait_candles: ['int', 20],
    allow_multiple_entries: ['bool', false],
    min_overlap_ratio: ['float', undefined],
    rsi_key: ['string', 'RSI'],
    rsi_threshold: ['float', 40],
    ema_fast: ['string', 'EMA_50'],
    ema_slow: ['string', 'EMA_200'],
    ema_key: ['string', 'EMA_50'],
    min_pips: ['float', 0],
    max_touch: ['int', 3],
    ob_side: ['string', 'both'],
    time_key: ['string', 'time'],
    confirm_candle: ['bool', false],
  });
});

test('every parameter has a French label, a description and a level', () => {
  for (const p of PARAMS) {
    assert.ok(p.label.length > 2 && p.description.length > 20, p.name);
    assert.ok(p.level === 'basic' || p.level === 'advanced', p.name);
  }
  assert.equal(getParam('min_overlap_ratio').label, 'Profondeur min retour (%)');
  assert.deepEqual(getParam('ob_side').choices, ['both', 'bullish', 'bearish']);
  assert.throws(() => getParam('ema3'), /invalid parameter: "ema3" \(expected one of min_wait_candles, /);
});
