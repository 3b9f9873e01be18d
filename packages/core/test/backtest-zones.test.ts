import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listZones } from '@bt/core';
import { bars, flat, mirror, T0, HOUR, type Bar } from './engine-fixtures.js';

// Bullish order block [99, 101] confirmed at 2; touched at 4 (too early for min_wait 3) and 5.
const ROWS: Bar[] = [flat(101), [100.8, 101, 99, 99.5], [99.5, 102.2, 99.4, 102], [102, 103, 101.5, 102.8], [102.8, 102.9, 100.9, 101.6], [101.6, 101.7, 100.5, 100.7], flat(100.7)];

test('zones export: kind, side, edges, formed/confirmed/filled/mitigated with indices and times', () => {
  for (const side of [1, -1] as const) {
    const candles = bars(side > 0 ? ROWS : mirror(ROWS));
    const zones = listZones(candles, 'order_block');
    assert.equal(zones.length, 1);
    const z = zones[0];
    assert.deepEqual(
      [z.kind, z.side, z.formed_index, z.confirmed_index, z.mitigated_index, z.filled_index],
      ['order_block', side > 0 ? 'buy' : 'sell', 1, 2, 4, 5],
      'mitigated at the first touch (4), filled when the rules allow (5)',
    );
    assert.deepEqual([z.formed_at, z.confirmed_at, z.mitigated_at, z.filled_at], [T0 + HOUR, T0 + 2 * HOUR, T0 + 4 * HOUR, T0 + 5 * HOUR]);
    assert.deepEqual([z.top, z.bottom], side > 0 ? [101, 99] : [200 - 99, 200 - 101]);
  }
});

test('zones export: entry parameters move the fill; a strategy key applies its pattern and defaults', () => {
  const candles = bars(ROWS);
  assert.equal(listZones(candles, 'order_block', { min_wait_candles: 1 })[0].filled_index, 4);
  assert.equal(listZones(candles, "order_block", { min_wait_candles: 1, max_wait_candles: 1 })[0].filled_index, null);
  assert.equal(listZones(candles, 'order_block', { min_overlap_ratio: 0.9 })[0].filled_index, null);
  assert.deepEqual(listZones(candles, 'ob_pullback_pure').map((z) => z.filled_index), [5]);
  assert.equal(listZones(candles, 'order_block_gap').length, 1);
  assert.equal(listZones(candles, 'order_block', { min_pips: 25 }, { pipSize: 0.1 }).length, 0, 'zone 2.0 < 25 pips of 0.1');
  assert.equal(listZones(candles, 'order_block', { min_pips: 20 }, { pipSize: 0.1 }).length, 1);
  assert.throws(() => listZones(candles, 'order_block', { min_pips: 20 }), /invalid symbol/, 'pips need a pip size');
  assert.throws(() => listZones(candles, 'triangle'), /invalid pattern: "triangle"/);
  const never = bars(ROWS.slice(0, 4));
  assert.deepEqual([listZones(never, 'order_block')[0].mitigated_index, listZones(never, 'order_block')[0].mitigated_at], [null, null]);
});

test('zones export: signal patterns list their pattern range and the next open as the fill', () => {
  const engulf: Bar[] = [[100, 100.8, 99.8, 100.6], [100.5, 100.7, 100, 100.1], [99.9, 101.2, 99.7, 101], flat(101)];
  const [z] = listZones(bars(engulf), 'engulfing');
  assert.deepEqual([z.kind, z.side, z.top, z.bottom, z.confirmed_index, z.filled_index], ['engulfing', 'buy', 101.2, 99.7, 2, 3]);
});
