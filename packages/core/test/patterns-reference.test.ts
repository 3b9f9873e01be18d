import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '@bt/core/candles';
import { detectFvg, detectImpulsiveFvg, detectOrderBlocks, detectEngulfing, type PriceSeries, type Setups } from '@bt/core/patterns';

// The detectors choose values without branches and switch loops from chunk to chunk of 4,096
// candles (docs/engine.md §11); here they are compared, every column, with the rules read candle
// by candle (docs/architecture.md §2), on random walks with hostile prices mixed in.

interface Row { side: number; top: number; bottom: number; stop: number; formedAt: number; confirmedAt: number }

function tooSmall(top: number, bottom: number, minSize: number): boolean {
  return minSize > 0 && top - bottom < minSize - 1e-9 * Math.abs(top);
}

function referenceFvg(s: PriceSeries, minSize: number, impulsive: boolean): Row[] {
  const { open, high, low, close } = s;
  const rows: Row[] = [];
  for (let i = 2; i < s.length; i++) {
    const m = i - 1;
    let side = 0;
    if (low[i] > high[i - 2] && close[m] > open[m]) side = 1;
    else if (high[i] < low[i - 2] && close[m] < open[m]) side = -1;
    if (side === 0) continue;
    const top = side > 0 ? low[i] : low[i - 2];
    const bottom = side > 0 ? high[i - 2] : high[i];
    if (tooSmall(top, bottom, minSize)) continue;
    if (!impulsive) {
      rows.push({ side, top, bottom, stop: side > 0 ? bottom : top, formedAt: m, confirmedAt: i });
      continue;
    }
    const body = side > 0 ? close[m] - open[m] : open[m] - close[m];
    if (body < 0.5 * (high[m] - low[m])) continue;
    if (body < Math.abs(close[i - 2] - open[i - 2]) || body < Math.abs(close[i] - open[i])) continue;
    const stop = side > 0 ? Math.min(low[i - 2], low[m], low[i]) : Math.max(high[i - 2], high[m], high[i]);
    rows.push({ side, top, bottom, stop, formedAt: m, confirmedAt: i });
  }
  return rows;
}

function referenceOrderBlocks(s: PriceSeries, gap: boolean, minSize: number): Row[] {
  const { open, high, low, close } = s;
  const rows: Row[] = [];
  for (let k = 0; k + (gap ? 2 : 1) < s.length; k++) {
    const b = k + 1;
    let side = 0;
    if (close[k] < open[k] && close[b] > open[b] && close[b] > high[k]) side = 1;
    else if (close[k] > open[k] && close[b] < open[b] && close[b] < low[k]) side = -1;
    if (side === 0) continue;
    const top = high[k];
    const bottom = low[k];
    // Refused on an overlap (a NaN price overlaps nothing).
    if (gap && (side > 0 ? low[k + 2] <= top : high[k + 2] >= bottom)) continue;
    if (tooSmall(top, bottom, minSize)) continue;
    rows.push({ side, top, bottom, stop: side > 0 ? bottom : top, formedAt: k, confirmedAt: gap ? k + 2 : k + 1 });
  }
  return rows;
}

function referenceEngulfing(s: PriceSeries): Row[] {
  const { open, high, low, close } = s;
  const rows: Row[] = [];
  for (let i = 2; i < s.length; i++) {
    const lowEdge = Math.min(open[i - 1], close[i - 1], open[i - 2], close[i - 2]);
    const highEdge = Math.max(open[i - 1], close[i - 1], open[i - 2], close[i - 2]);
    let side = 0;
    if (close[i] > open[i] && close[i - 1] < open[i - 1] && open[i] <= lowEdge && close[i] >= highEdge) side = 1;
    else if (close[i] < open[i] && close[i - 1] > open[i - 1] && open[i] >= highEdge && close[i] <= lowEdge) side = -1;
    if (side === 0) continue;
    const top = Math.max(high[i - 2], high[i - 1], high[i]);
    const bottom = Math.min(low[i - 2], low[i - 1], low[i]);
    rows.push({ side, top, bottom, stop: side > 0 ? bottom : top, formedAt: i, confirmedAt: i });
  }
  return rows;
}

/** A random walk of `n` candles; `hostile` replaces that share of prices with NaN, ±0, negatives, infinities and repeats. */
function walk(n: number, seed: number, hostile: number): PriceSeries {
  const rand = seededRandom(seed);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  let price = 1.1;
  const round = (x: number) => Math.round(x * 1e5) / 1e5;
  for (let i = 0; i < n; i++) {
    const o = round(price);
    const c = round(o + (rand() - 0.5) * 0.0004);
    open[i] = o;
    close[i] = c;
    high[i] = round(Math.max(o, c) + rand() * 0.0002);
    low[i] = round(Math.min(o, c) - rand() * 0.0002);
    price = c;
  }
  const odd = [NaN, 0, -0, -1.1, Infinity, -Infinity];
  for (const column of [open, high, low, close]) {
    for (let i = 1; i < n; i++) {
      const u = rand();
      if (u < hostile / 2) column[i] = odd[Math.floor(rand() * odd.length)];
      else if (u < hostile) column[i] = column[i - 1];
    }
  }
  return { length: n, time: new Float64Array(n), open, high, low, close };
}

function assertSame(actual: Setups, expected: Row[], label: string): void {
  assert.equal(actual.count, expected.length, `${label}: count`);
  for (let z = 0; z < actual.count; z++) {
    const want = expected[z];
    const got: Row = { side: actual.side[z], top: actual.top[z], bottom: actual.bottom[z], stop: actual.stop[z], formedAt: actual.formedAt[z], confirmedAt: actual.confirmedAt[z] };
    for (const key of Object.keys(want) as (keyof Row)[]) {
      assert.ok(Object.is(got[key], want[key]), `${label}: setup ${z} ${key}: ${got[key]} instead of ${want[key]}`);
    }
  }
}

// Minimum sizes from none to one that rejects nearly every zone (the detectors then switch to a
// branch per candidate after a chunk that kept fewer than one in 8).
const SIZES = [0, 0.00003, 0.00012, 0.0003];
const SERIES = [walk(30_000, 1, 0), walk(30_000, 2, 0.02), walk(9_000, 3, 0.3), walk(3, 4, 0), walk(2, 5, 0), walk(0, 6, 0)];

test('FVG and impulsive FVG: the same setups as the rules read candle by candle', () => {
  for (const [n, s] of SERIES.entries()) {
    for (const minSize of SIZES) {
      assertSame(detectFvg(s, { minSize }), referenceFvg(s, minSize, false), `fvg series ${n} min ${minSize}`);
      assertSame(detectImpulsiveFvg(s, { minSize }), referenceFvg(s, minSize, true), `impulsive series ${n} min ${minSize}`);
    }
  }
});

test('order blocks, with and without the gap: the same setups as the rules read candle by candle', () => {
  for (const [n, s] of SERIES.entries()) {
    for (const minSize of SIZES) {
      for (const gap of [false, true]) {
        assertSame(detectOrderBlocks(s, { gap, minSize }), referenceOrderBlocks(s, gap, minSize), `ob gap ${gap} series ${n} min ${minSize}`);
      }
    }
  }
});

test('engulfing: the same setups as the rules read candle by candle', () => {
  for (const [n, s] of SERIES.entries()) assertSame(detectEngulfing(s), referenceEngulfing(s), `engulfing series ${n}`);
});

test('the random walks reach every path: many setups, and minimum sizes that keep few', () => {
  const s = SERIES[0];
  assert.ok(detectFvg(s).count > 1000);
  assert.ok(detectEngulfing(s).count > 500);
  for (const few of [detectOrderBlocks(s, { minSize: 0.0003 }).count * 8 - detectOrderBlocks(s).count, detectFvg(s, { minSize: 0.00012 }).count * 8 - detectFvg(s).count]) {
    assert.ok(few < 0, 'a minimum size keeps fewer than one zone in 8');
  }
  assert.ok(detectOrderBlocks(s, { minSize: 0.0003 }).count > 0 && detectFvg(s, { minSize: 0.00012 }).count > 0);
  assert.ok(detectImpulsiveFvg(s).count > 100);
});
