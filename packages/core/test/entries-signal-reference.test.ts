// signalEntries against the rules read setup by setup (docs/engine.md §5: the open after the signal
// candle, when the filters pass on the signal candle) on random candles and signals: every filter
// and their combinations, masks, indicator columns with NaN (warm-up) and values equal to the
// thresholds, signals on the last candle and before the warm-up start, an ask series and slippage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '@bt/core/candles';
import type { PriceSeries, Setups } from '@bt/core/patterns';
import { priceRounding, signalEntries } from '@bt/core/simulate';
import { filterGate, type FilterGate, type FilterMasks } from '@bt/core/strategies';

interface Row { setup: number; index: number; side: number; orderPrice: number; entryPrice: number }

function randomSeries(rand: () => number, n: number): PriceSeries {
  const open = new Float64Array(n);
  const close = new Float64Array(n);
  let p = 1.1;
  for (let i = 0; i < n; i++) {
    open[i] = rand() < 0.01 ? NaN : Math.round(p * 1e5) / 1e5;
    close[i] = Math.round((p + (rand() - 0.5) * 0.002) * 1e5) / 1e5;
    p = close[i];
  }
  return { length: n, time: new Float64Array(n), open, high: close, low: close, close } as unknown as PriceSeries;
}

function randomSignals(rand: () => number, n: number, count: number): Setups {
  const confirmedAt = Int32Array.from({ length: count }, () => (rand() < 0.02 ? n - 1 : Math.floor(rand() * n))).sort();
  const side = Int8Array.from({ length: count }, () => (rand() < 0.5 ? 1 : -1));
  const none = new Float64Array(count);
  return { kind: 'engulfing', count, side, top: none, bottom: none, stop: none, formedAt: confirmedAt, confirmedAt };
}

/** An indicator column around `centre`, with NaN (warm-up) and exact `centre` values mixed in. */
function column(rand: () => number, n: number, centre: number, spread: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => (i < 20 || rand() < 0.03 ? NaN : rand() < 0.05 ? centre : centre + (rand() - 0.5) * spread));
}

/** The rules, setup by setup. */
function reference(series: PriceSeries, setups: Setups, gate: FilterGate | null, start: number, ask: Float64Array, slip: number, scale: number): Row[] {
  const rows: Row[] = [];
  for (let z = 0; z < setups.count; z++) {
    const s = setups.confirmedAt[z];
    const j = s + 1;
    if (j >= series.length || j < start) continue;
    const buy = setups.side[z] > 0;
    if (gate) {
      const mask = buy ? gate.maskBuy : gate.maskSell;
      if (mask && mask[s] !== 1) continue;
      if (gate.rsi && !(buy ? gate.rsi[s] < gate.rsiBuyBelow : gate.rsi[s] > gate.rsiSellAbove)) continue;
      if (gate.ema && !(buy ? gate.close[s] > gate.ema[s] : gate.close[s] < gate.ema[s])) continue;
      if (gate.emaFast && !(buy ? gate.emaFast[s] > gate.emaSlow![s] : gate.emaFast[s] < gate.emaSlow![s])) continue;
    }
    const price = buy ? ask[j] : series.open[j];
    rows.push({ setup: z, index: j, side: setups.side[z], orderPrice: price, entryPrice: slip === 0 ? price : Math.round((price + setups.side[z] * slip) * scale) / scale });
  }
  return rows;
}

test('signal entries: the same entries as the rules read setup by setup, for every filter combination, with and without costs', () => {
  const rand = seededRandom(20261127);
  let compared = 0;
  for (let round = 0; round < 12; round++) {
    const n = 500 + Math.floor(rand() * 6000);
    const series = randomSeries(rand, n);
    const setups = randomSignals(rand, n, Math.floor(n / (2 + rand() * 6)));
    // RSI over 0..100 with the thresholds themselves mixed in (30/70 and 35/65: buy below, sell above).
    const rsi = Float64Array.from({ length: n }, (_, i) => (i < 20 || rand() < 0.03 ? NaN : rand() < 0.1 ? [30, 70, 35, 65][Math.floor(rand() * 4)] : rand() * 100));
    const ema = Float64Array.from(series.close, (c, i) => (i < 20 || rand() < 0.03 ? NaN : rand() < 0.05 ? c : c + (rand() - 0.5) * 0.002));
    const emaFast = column(rand, n, 1.1, 0.004);
    const emaSlow = Float64Array.from(emaFast, (f) => (rand() < 0.05 ? f : 1.1 + (rand() - 0.5) * 0.004));
    const masks: FilterMasks = { buy: Uint8Array.from({ length: n }, () => +(rand() < 0.5)), sell: Uint8Array.from({ length: n }, () => +(rand() < 0.5)) };
    const gates: [string, FilterGate | FilterMasks | null][] = [
      ['none', null],
      ['rsi', filterGate(series, ['rsi'], { rsi, rsiThreshold: 30 })],
      ['ema', filterGate(series, ['ema_simple'], { ema })],
      ['trend', filterGate(series, ['tendance_ema'], { emaFast, emaSlow })],
      ['rsi + ema', filterGate(series, ['rsi', 'ema_simple'], { rsi, rsiThreshold: 30, ema })],
      ['all three', filterGate(series, ['rsi', 'ema_simple', 'tendance_ema'], { rsi, rsiThreshold: 35, ema, emaFast, emaSlow })],
      ['masks', masks],
    ];
    const ask = Float64Array.from(series.open, (o) => o + 0.00012);
    const scale = priceRounding(0.0001);
    for (const [name, filters] of gates) {
      for (const [costs, slip] of [[false, 0], [true, 0], [true, 0.00005]] as const) {
        const start = rand() < 0.5 ? 0 : Math.floor(rand() * n * 0.3);
        const quotes = costs ? { ask: { ...series, open: ask } as PriceSeries, slippage: slip, priceScale: scale } : undefined;
        const got = signalEntries(series, setups, filters, start, quotes);
        const gate = filters === null ? null : 'buy' in filters ? { maskBuy: filters.buy, maskSell: filters.sell, rsi: null, rsiBuyBelow: NaN, rsiSellAbove: NaN, close: series.close, ema: null, emaFast: null, emaSlow: null } : filters;
        const want = reference(series, setups, gate, start, costs ? ask : series.open, slip, scale);
        const where = `round ${round}, ${name}, costs ${costs}, slippage ${slip}, start ${start}`;
        assert.equal(got.count, want.length, where);
        assert.ok(want.length > 0 || name !== 'none', `${where}: a case with entries`);
        for (let e = 0; e < want.length; e++) {
          const w = want[e];
          const row = { setup: got.setup[e], index: got.index[e], side: got.side[e], orderPrice: got.orderPrice[e], entryPrice: got.entryPrice[e] };
          assert.deepEqual(row, w, `${where}, entry ${e}`);
        }
        assert.ok(got.resting.every((r) => r === 0), `${where}: entries at the open`);
        compared += want.length;
      }
    }
  }
  assert.ok(compared > 10_000, `entries compared: ${compared}`);
});
