import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFvg, detectImpulsiveFvg, detectOrderBlocks, detectEngulfing, applyConfirmCandle, mitigationIndices, keepSide, type Setups } from '@bt/core/patterns';
import { bars, mirror, m, flat, type Bar } from './engine-fixtures.js';

const list = (s: Setups) =>
  Array.from({ length: s.count }, (_, z) => ({
    side: s.side[z], top: s.top[z], bottom: s.bottom[z], stop: s.stop[z], formedAt: s.formedAt[z], confirmedAt: s.confirmedAt[z],
  }));

// Candle 1 is the bullish middle candle; low[2]=103 > high[0]=101: zone [101, 103], known at 2.
const BULL_FVG: Bar[] = [[100, 101, 99, 100.5], [100.5, 104, 100.4, 103.8], [103.8, 105, 103, 104.5], [104.5, 104.7, 103.9, 104.5]];

test('FVG: bullish gap between candle i-2 high and candle i low, confirmed at i, labelled on the middle candle', () => {
  assert.deepEqual(list(detectFvg(bars(BULL_FVG))), [{ side: 1, top: 103, bottom: 101, stop: 101, formedAt: 1, confirmedAt: 2 }]);
});

test('FVG: the bearish mirror gives the mirrored zone with the stop on its top', () => {
  assert.deepEqual(list(detectFvg(bars(mirror(BULL_FVG)))), [{ side: -1, top: m(101), bottom: m(103), stop: m(101), formedAt: 1, confirmedAt: 2 }]);
});

test('FVG: no gap when the middle candle closes against the gap or the wicks overlap', () => {
  const bearishMiddle: Bar[] = [BULL_FVG[0], [103.8, 104, 100.4, 100.5], BULL_FVG[2]];
  assert.equal(detectFvg(bars(bearishMiddle)).count, 0);
  const overlap: Bar[] = [BULL_FVG[0], BULL_FVG[1], [103.8, 105, 101, 104.5]];
  assert.equal(detectFvg(bars(overlap)).count, 0, 'low[i] == high[i-2] is not a gap');
});

test('FVG: min size keeps a gap of exactly the minimum and drops a smaller one', () => {
  const rows: Bar[] = [[1.1, 1.1001, 1.0999, 1.1], [1.1, 1.1008, 1.1, 1.1007], [1.1007, 1.101, 1.1006, 1.1009]];
  // gap = 1.1006 - 1.1001 = 5 pips (0.0005 in floats is 0.000499999...)
  assert.equal(detectFvg(bars(rows), { minSize: 5 * 0.0001 }).count, 1);
  assert.equal(detectFvg(bars(rows), { minSize: 5.1 * 0.0001 }).count, 0);
});

test('impulsive FVG: the middle body must dominate its wicks and outgrow both outer bodies', () => {
  const ok = detectImpulsiveFvg(bars(BULL_FVG));
  assert.deepEqual(list(ok), [{ side: 1, top: 103, bottom: 101, stop: 99, formedAt: 1, confirmedAt: 2 }]);
  // Body 2 of a 6-wide range: wicks dominate.
  const wicky: Bar[] = [BULL_FVG[0], [101.5, 105, 99.5, 103.5], [103.8, 105, 103, 104.5]];
  assert.equal(detectFvg(bars(wicky)).count, 1);
  assert.equal(detectImpulsiveFvg(bars(wicky)).count, 0);
  // Third body (4) larger than the middle body (3.3).
  const biggerThird: Bar[] = [BULL_FVG[0], BULL_FVG[1], [103.2, 107.5, 103, 107.2]];
  assert.equal(detectImpulsiveFvg(bars(biggerThird)).count, 0);
  const bear = detectImpulsiveFvg(bars(mirror(BULL_FVG)));
  assert.deepEqual(list(bear), [{ side: -1, top: m(101), bottom: m(103), stop: m(99), formedAt: 1, confirmedAt: 2 }]);
  assert.equal(detectImpulsiveFvg(bars(BULL_FVG), { minSize: 2 }).count, 1, 'min size in price units, inclusive');
  assert.equal(detectImpulsiveFvg(bars(BULL_FVG), { minSize: 2.01 }).count, 0);
});

// Candle 1 bearish [low 99, high 101]; candle 2 bullish closing at 102 > 101.
const BULL_OB: Bar[] = [flat(101), [100.8, 101, 99, 99.5], [99.5, 102.2, 99.4, 102], [102, 103, 101.5, 102.8], flat(102.8)];

test('order block: last bearish candle before a bullish candle closing above its high', () => {
  assert.deepEqual(list(detectOrderBlocks(bars(BULL_OB))), [{ side: 1, top: 101, bottom: 99, stop: 99, formedAt: 1, confirmedAt: 2 }]);
  assert.deepEqual(list(detectOrderBlocks(bars(mirror(BULL_OB)))), [{ side: -1, top: m(99), bottom: m(101), stop: m(99), formedAt: 1, confirmedAt: 2 }]);
  const weak: Bar[] = [flat(101), BULL_OB[1], [99.5, 101.2, 99.4, 101]];
  assert.equal(detectOrderBlocks(bars(weak)).count, 0, 'a close at high[k] is not above it');
});

test('order block with gap: low[k+2] above high[k], confirmed at k+2; an overlap refuses it', () => {
  assert.deepEqual(list(detectOrderBlocks(bars(BULL_OB), { gap: true })), [{ side: 1, top: 101, bottom: 99, stop: 99, formedAt: 1, confirmedAt: 3 }]);
  assert.deepEqual(list(detectOrderBlocks(bars(mirror(BULL_OB)), { gap: true })).map((z) => z.confirmedAt), [3]);
  const touching: Bar[] = [...BULL_OB.slice(0, 3), [102, 103, 101, 102.8]];
  assert.equal(detectOrderBlocks(bars(touching), { gap: true }).count, 0);
  for (const gap of [false, true]) {
    assert.equal(detectOrderBlocks(bars(BULL_OB), { gap, minSize: 2 }).count, 1, 'min size: the zone height, inclusive');
    assert.equal(detectOrderBlocks(bars(BULL_OB), { gap, minSize: 2.1 }).count, 0);
  }
});

// i-2 bullish body [100, 100.6], i-1 bearish body [100.1, 100.5], i bullish body [99.9, 101].
const BULL_ENGULF: Bar[] = [[100, 100.8, 99.8, 100.6], [100.5, 100.7, 100, 100.1], [99.9, 101.2, 99.7, 101], flat(101)];

test('engulfing: a bullish candle whose body covers the bodies of the two before it', () => {
  assert.deepEqual(list(detectEngulfing(bars(BULL_ENGULF))), [{ side: 1, top: 101.2, bottom: 99.7, stop: 99.7, formedAt: 2, confirmedAt: 2 }]);
  assert.deepEqual(list(detectEngulfing(bars(mirror(BULL_ENGULF)))), [{ side: -1, top: m(99.7), bottom: m(101.2), stop: m(99.7), formedAt: 2, confirmedAt: 2 }]);
  const notCoveringFirst: Bar[] = [[100, 101.5, 99.8, 101.3], BULL_ENGULF[1], BULL_ENGULF[2]];
  assert.equal(detectEngulfing(bars(notCoveringFirst)).count, 0, 'close 101 < i-2 close 101.3');
  const previousBullish: Bar[] = [BULL_ENGULF[0], [100.1, 100.7, 100, 100.5], BULL_ENGULF[2]];
  assert.equal(detectEngulfing(bars(previousBullish)).count, 0, 'candle i-1 must be bearish');
});

test('confirm candle: the next candle must close in the direction; the setup moves one candle later', () => {
  const series = bars(BULL_FVG);
  const fvg = detectFvg(series);
  assert.deepEqual(list(applyConfirmCandle(fvg, bars([...BULL_FVG.slice(0, 3), [104.5, 105, 104, 104.9]]))).map((z) => z.confirmedAt), [3]);
  assert.equal(applyConfirmCandle(fvg, bars([...BULL_FVG.slice(0, 3), [104.5, 105, 104, 104.1]])).count, 0, 'bearish confirming candle');
  assert.equal(applyConfirmCandle(fvg, bars(BULL_FVG.slice(0, 3))).count, 0, 'no candle after the signal');
  const bear = bars(mirror([...BULL_FVG.slice(0, 3), [104.5, 105, 104, 104.9]]));
  assert.deepEqual(list(applyConfirmCandle(detectFvg(bear), bear)).map((z) => z.confirmedAt), [3]);
});

test('keepSide keeps one direction (ob_side)', () => {
  const both = bars([...BULL_OB, ...mirror(BULL_OB, 2 * 102.8)]);
  const all = detectOrderBlocks(both);
  assert.deepEqual(Array.from(all.side), [1, -1]);
  assert.deepEqual(Array.from(keepSide(all, -1).side), [-1]);
  assert.equal(keepSide(all, 0), all);
});

test('mitigation: first candle after confirmation that reaches the near edge', () => {
  const rows: Bar[] = [...BULL_FVG.slice(0, 3), [104.5, 104.8, 103.5, 104], [104, 104.2, 102.9, 103.5], flat(103.5)];
  const s = bars(rows);
  assert.deepEqual(Array.from(mitigationIndices(detectFvg(s), s)), [4]);
  const mr = bars(mirror(rows));
  assert.deepEqual(Array.from(mitigationIndices(detectFvg(mr), mr)), [4]);
  const never = bars(BULL_FVG);
  assert.deepEqual(Array.from(mitigationIndices(detectFvg(never), never)), [-1]);
});
