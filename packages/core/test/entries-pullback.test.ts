import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFvg, type Setups } from '@bt/core/patterns';
import { pullbackEntries, signalEntries, type PullbackRules } from '@bt/core/simulate';
import type { FilterMasks } from '@bt/core/strategies';
import { bars, mirror, m, type Bar } from './engine-fixtures.js';

// A bullish FVG [101, 103] confirmed at candle 2 (d = 2), then candles chosen per test.
const ZONE: Bar[] = [[100, 101, 99, 100.5], [100.5, 104, 100.4, 103.8], [103.8, 105, 103, 104.5]];
const ABOVE: Bar = [104.5, 104.8, 103.5, 104.6]; // no touch
const TOUCH: Bar = [104, 104.2, 102.5, 103.8]; // low 102.5 <= 103: a touch, not 50 % deep
const DEEP: Bar = [104, 104.2, 101.5, 103.5]; // reaches 102 (50 %)
const BREAK: Bar = [102, 102.5, 100, 100.5]; // closes below 101: invalidates

const RULES: PullbackRules = { minWait: 3, maxWait: 20, maxTouch: Infinity, allowMultiple: false };

interface Seen { index: number; side: number; orderPrice: number; entryPrice: number; setup: number }

/** Runs the rule on the bullish rows and on their mirror; returns both, the mirror mapped back. */
function bothSides(rows: Bar[], rules: Partial<PullbackRules> = {}, masks?: (n: number, side: 1 | -1) => FilterMasks, startIndex = 0): Seen[] {
  const results: Seen[][] = [];
  for (const side of [1, -1] as const) {
    const series = bars(side > 0 ? rows : mirror(rows));
    const zones: Setups = detectFvg(series);
    const e = pullbackEntries(series, zones, masks ? masks(series.length, side) : null, { ...RULES, ...rules }, startIndex);
    results.push(
      Array.from({ length: e.count }, (_, k) => ({
        index: e.index[k],
        side: e.side[k] * side,
        orderPrice: side > 0 ? e.orderPrice[k] : m(e.orderPrice[k]),
        entryPrice: side > 0 ? e.entryPrice[k] : m(e.entryPrice[k]),
        setup: e.setup[k],
      })),
    );
  }
  assert.deepEqual(results[1], results[0], 'the sell side mirrors the buy side');
  return results[0];
}
const at = (index: number, orderPrice: number, entryPrice = orderPrice, setup = 0): Seen => ({ index, side: 1, orderPrice, entryPrice, setup });

test('min_wait_candles: touches before j - d >= min_wait are ignored', () => {
  assert.deepEqual(bothSides([...ZONE, TOUCH, TOUCH, TOUCH]), [at(5, 103)]);
  assert.deepEqual(bothSides([...ZONE, TOUCH, TOUCH, TOUCH], { minWait: 1 }), [at(3, 103)]);
  assert.deepEqual(bothSides([...ZONE, TOUCH], { minWait: 0 }), [at(3, 103)], 'never on the confirmation candle itself');
});

test('max_wait_candles: the zone expires when j - d > max_wait', () => {
  const rows = [...ZONE, ABOVE, ABOVE, ABOVE, ABOVE, TOUCH];
  assert.deepEqual(bothSides(rows, { maxWait: 5 }), [at(7, 103)]);
  assert.deepEqual(bothSides(rows, { maxWait: 4 }), []);
});

test('min_overlap_ratio: the order rests inside the zone; a shallower touch does not fill', () => {
  assert.deepEqual(bothSides([...ZONE, ABOVE, ABOVE, TOUCH, DEEP], { overlapRatio: 0.5 }), [at(6, 102)]);
  assert.deepEqual(bothSides([...ZONE, ABOVE, ABOVE, TOUCH, DEEP]), [at(5, 103)], 'empty ratio: touch entry at the near edge');
  assert.deepEqual(bothSides([...ZONE, ABOVE, ABOVE, DEEP], { overlapRatio: 0.25 }), [at(5, 102.5)]);
});

test('a candle opening beyond the resting price fills at its open; levels stay on the resting price', () => {
  const gapDown: Bar = [101.8, 102, 101.2, 101.9];
  assert.deepEqual(bothSides([...ZONE, ABOVE, ABOVE, gapDown], { overlapRatio: 0.5 }), [at(5, 102, 101.8)]);
});

test('invalidation: a close beyond the far edge before the fill ends the zone, even while waiting', () => {
  assert.deepEqual(bothSides([...ZONE, BREAK, ABOVE, TOUCH]), []);
  assert.deepEqual(bothSides([...ZONE, ABOVE, ABOVE, ABOVE, TOUCH], { overlapRatio: 1 }), [], 'touch without fill');
  // Refused by the filter, then broken: nothing later.
  const refuseAll = (n: number): FilterMasks => ({ buy: new Uint8Array(n), sell: new Uint8Array(n) });
  assert.deepEqual(bothSides([...ZONE, ABOVE, ABOVE, BREAK, TOUCH], {}, refuseAll), []);
});

test('a filled candle that closes beyond the zone still fills (the close comes after the fill)', () => {
  assert.deepEqual(bothSides([...ZONE, ABOVE, ABOVE, BREAK, TOUCH], { allowMultiple: true }), [at(5, 103, 102)], 'it opens at 102, below the resting price');
});

test('max_touch: touches refused by a filter count; past the limit the zone is dropped', () => {
  const refuseFirst = (n: number, side: 1 | -1): FilterMasks => {
    const ok = new Uint8Array(n).fill(1);
    ok[4] = 0; // filter read on j-1 = 4 for the touch at j = 5
    return side > 0 ? { buy: ok, sell: new Uint8Array(n) } : { buy: new Uint8Array(n), sell: ok };
  };
  const rows = [...ZONE, ABOVE, ABOVE, TOUCH, TOUCH];
  assert.deepEqual(bothSides(rows, { maxTouch: 1 }, refuseFirst), []);
  assert.deepEqual(bothSides(rows, { maxTouch: 2 }, refuseFirst), [at(6, 103)]);
  assert.deepEqual(bothSides(rows, {}, refuseFirst), [at(6, 103)]);
  assert.deepEqual(bothSides([...ZONE, ABOVE, ABOVE, TOUCH, DEEP], { maxTouch: 1, overlapRatio: 0.5 }), [], 'a shallow touch counts too');
});

test('filters are read on the candle before the entry (j-1)', () => {
  const onlyOn = (f: number) => (n: number, side: 1 | -1): FilterMasks => {
    const ok = new Uint8Array(n);
    ok[f] = 1;
    return side > 0 ? { buy: ok, sell: new Uint8Array(n) } : { buy: new Uint8Array(n), sell: ok };
  };
  const rows = [...ZONE, ABOVE, ABOVE, TOUCH, TOUCH, TOUCH];
  assert.deepEqual(bothSides(rows, {}, onlyOn(5)), [at(6, 103)]);
  assert.deepEqual(bothSides(rows, {}, onlyOn(6)), [at(7, 103)]);
});

test('allow_multiple_entries: a zone can fill again on a later candle (once per candle)', () => {
  const rows = [...ZONE, ABOVE, ABOVE, TOUCH, ABOVE, DEEP];
  assert.deepEqual(bothSides(rows), [at(5, 103)]);
  assert.deepEqual(bothSides(rows, { allowMultiple: true }), [at(5, 103), at(7, 103)]);
  assert.deepEqual(bothSides(rows, { allowMultiple: true, maxTouch: 1 }), [at(5, 103)]);
});

test('several zones live at once; entries come in candle order, then zone order', () => {
  // Second bullish FVG [104, 105.5] confirmed at 5 (candles 3..5), zone 1 [101, 103] still waiting.
  const rows: Bar[] = [...ZONE, [104.5, 104.8, 104, 104.6], [104.6, 106, 104.5, 105.9], [105.9, 106.5, 105.5, 106.2], [106.2, 106.4, 105.6, 106], [106, 106.2, 105.7, 105.8], [105.8, 105.9, 105.2, 105.4], [105.4, 105.5, 102.8, 103.2]];
  // Candle 8 (j-d = 3 for zone 2) touches zone 2 at 105.5; candle 9 reaches zone 1 at 103.
  assert.deepEqual(bothSides(rows, { minWait: 3, allowMultiple: false }), [at(8, 105.5, 105.5, 1), at(9, 103, 103, 0)]);
  const both: Bar[] = [...rows.slice(0, 8), [105.8, 105.9, 102.8, 103.2]];
  assert.deepEqual(bothSides(both, { minWait: 3 }), [at(8, 103, 103, 0), at(8, 105.5, 105.5, 1)]);
});

test('warm-up: a fill before the start index consumes the zone but is not emitted', () => {
  const rows = [...ZONE, ABOVE, ABOVE, TOUCH, TOUCH];
  assert.deepEqual(bothSides(rows, {}, undefined, 6), []);
  assert.deepEqual(bothSides(rows, { allowMultiple: true }, undefined, 6), [at(6, 103)]);
});

test('signal families: entry at the next open, filter read on the signal candle', () => {
  for (const side of [1, -1] as const) {
    const series = bars(side > 0 ? [...ZONE, ABOVE] : mirror([...ZONE, ABOVE]));
    const z = detectFvg(series);
    const e = signalEntries(series, z, null);
    assert.deepEqual([e.count, e.index[0], e.side[0], e.orderPrice[0], e.entryPrice[0], e.resting[0]], [1, 3, side, series.open[3], series.open[3], 0]);
    const refuse = new Uint8Array(series.length).fill(1);
    refuse[2] = 0;
    const masks = side > 0 ? { buy: refuse, sell: refuse } : { buy: refuse, sell: refuse };
    assert.equal(signalEntries(series, z, masks).count, 0);
    assert.equal(signalEntries(series, z, null, 4).count, 0, 'before the start index');
    assert.equal(signalEntries(bars(side > 0 ? ZONE : mirror(ZONE)), detectFvg(bars(ZONE)), null).count, 0, 'no candle after the signal');
  }
});

test('entry order: a stable sort on the entry candle, near-sorted or not', async () => {
  const { stableOrder } = await import('@bt/core/simulate');
  let seed = 3;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (const [n, spread] of [[200, 3], [200, 1000], [5000, 5000]] as const) {
    const keys = Int32Array.from({ length: n }, (_, i) => Math.max(0, Math.min(9999, Math.floor(i * 2 + (rand() - 0.5) * spread))));
    const order = stableOrder(keys, n, 10_000);
    const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a] - keys[b] || a - b);
    assert.deepEqual(Array.from(order ?? expected), expected, `n ${n}, spread ${spread}`);
  }
  assert.equal(stableOrder(Int32Array.of(1, 2, 2, 5), 4, 10), null, 'already sorted');
});
