// pullbackEntries against a plain candle-by-candle reading of the rules (docs/engine.md §5) on
// random candles and zones: short and long waits, zones near the series end, overlap ratios,
// touch limits, several entries per zone, filter masks, an ask series and a warm-up start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '@bt/core/candles';
import type { PriceSeries, Setups } from '@bt/core/patterns';
import { pullbackEntries, type PullbackRules } from '@bt/core/simulate';
import type { FilterMasks } from '@bt/core/strategies';

interface Row { setup: number; index: number; side: number; orderPrice: number; entryPrice: number }

function randomSeries(rand: () => number, n: number): PriceSeries {
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  let p = 100;
  for (let i = 0; i < n; i++) {
    // Prices on a coarse grid, so that prices equal to a zone edge or resting price are common.
    const o = Math.round(p * 4) / 4;
    const c = Math.round((o + (rand() - 0.5) * 3) * 4) / 4;
    open[i] = o;
    close[i] = c;
    high[i] = Math.max(o, c) + Math.round(rand() * 4) / 4;
    low[i] = Math.min(o, c) - Math.round(rand() * 4) / 4;
    p = rand() < 0.1 ? c + (rand() - 0.5) * 4 : c; // sometimes a gap to the next open
  }
  return { length: n, time: new Float64Array(n), open, high, low, close } as unknown as PriceSeries;
}

function randomZones(rand: () => number, series: PriceSeries, count: number): Setups {
  const confirmedAt = Int32Array.from({ length: count }, () => Math.floor(rand() * series.length)).sort();
  const side = Int8Array.from({ length: count }, () => (rand() < 0.5 ? 1 : -1));
  const top = new Float64Array(count);
  const bottom = new Float64Array(count);
  for (let z = 0; z < count; z++) {
    const c = series.close[confirmedAt[z]];
    const near = Math.round((c - side[z] * rand() * 3) * 4) / 4;
    const far = near - side[z] * Math.round((0.25 + rand() * 2) * 4) / 4;
    top[z] = Math.max(near, far);
    bottom[z] = Math.min(near, far);
  }
  return { kind: 'fvg', count, side, top, bottom, stop: bottom.slice(), formedAt: confirmedAt.slice(), confirmedAt } as unknown as Setups;
}

/** The rules read literally: per zone, per candle, expiry, waiting, touch, fill, invalidation. */
function reference(series: PriceSeries, zones: Setups, masks: FilterMasks | null, rules: PullbackRules, start: number, scale: number, ask: PriceSeries): Row[] {
  const rows: Row[] = [];
  for (let z = 0; z < zones.count; z++) {
    const d = zones.confirmedAt[z];
    const buy = zones.side[z] > 0;
    const top = zones.top[z];
    const bottom = zones.bottom[z];
    const depth = (rules.overlapRatio ?? 0) * (top - bottom);
    const raw = buy ? top - depth : bottom + depth;
    const price = depth === 0 || scale === 0 ? raw : Math.round(raw * scale) / scale;
    let touches = 0;
    for (let j = d + 1; j < series.length; j++) {
      if (j - d > rules.maxWait) break;
      if (j - d >= rules.minWait) {
        const touched = buy ? !(series.low[j] > top) : !(series.high[j] < bottom);
        if (touched) {
          touches++;
          if (touches > rules.maxTouch) break;
          const reaches = buy ? ask.low[j] <= price : series.high[j] >= price;
          const passes = masks === null || (buy ? masks.buy[j - 1] === 1 : masks.sell[j - 1] === 1);
          if (reaches && passes) {
            const o = buy ? ask.open[j] : series.open[j];
            if (j >= start) rows.push({ setup: z, index: j, side: buy ? 1 : -1, orderPrice: price, entryPrice: buy ? (o < price ? o : price) : o > price ? o : price });
            if (!rules.allowMultiple) break;
          }
        }
      }
      if (buy ? series.close[j] < bottom : series.close[j] > top) break;
    }
  }
  return rows.sort((a, b) => a.index - b.index || a.setup - b.setup);
}

test('pullbackEntries matches the rules read candle by candle on random data', () => {
  const rand = seededRandom(20261126);
  let compared = 0;
  for (let round = 0; round < 300; round++) {
    const n = 5 + Math.floor(rand() * 400);
    const series = randomSeries(rand, n);
    const zones = randomZones(rand, series, Math.floor(rand() * n * 0.6));
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    const rules: PullbackRules = {
      minWait: pick([0, 1, 2, 3, 5]),
      maxWait: pick([0, 1, 2, 3, 4, 5, 7, 8, 20, 60, Infinity]),
      overlapRatio: pick([undefined, 0.25, 0.5, 1]),
      maxTouch: pick([1, 2, 3, Infinity]),
      allowMultiple: rand() < 0.4,
    };
    const masks: FilterMasks | null = rand() < 0.4 ? { buy: Uint8Array.from({ length: n }, () => +(rand() < 0.6)), sell: Uint8Array.from({ length: n }, () => +(rand() < 0.6)) } : null;
    const spread = rand() < 0.3 ? 0.25 : 0;
    const ask = spread ? ({ ...series, open: series.open.map((x) => x + spread), low: series.low.map((x) => x + spread), high: series.high.map((x) => x + spread), close: series.close.map((x) => x + spread) } as PriceSeries) : series;
    const start = rand() < 0.3 ? Math.floor(rand() * n) : 0;
    const scale = rand() < 0.5 ? 8 : 0;
    const e = pullbackEntries(series, zones, masks, rules, start, scale, ask);
    const got: Row[] = Array.from({ length: e.count }, (_, k) => ({ setup: e.setup[k], index: e.index[k], side: e.side[k], orderPrice: e.orderPrice[k], entryPrice: e.entryPrice[k] }));
    assert.deepEqual(got, reference(series, zones, masks, rules, start, scale, ask), `round ${round}, n ${n}, ${JSON.stringify(rules)}`);
    assert.ok(e.resting.every((r) => r === 1));
    compared += e.count;
  }
  assert.ok(compared > 1000, `enough entries compared (${compared})`);
});
