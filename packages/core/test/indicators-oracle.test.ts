import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EMA } from 'technicalindicators';
import { RSI } from 'trading-signals';
import { ema, rsi } from '@bt/core/indicators';

// Oracles, devDependencies only: technicalindicators' EMA seeds with the SMA of the first n values
// (trading-signals' seeds with the first price); trading-signals' RSI is Wilder's, full precision
// (technicalindicators' rounds to 2 decimals). Each checks the indicator it computes as we define it.

const fixtures = new URL('../../../fixtures/', import.meta.url);

/** The Close column of a CSV fixture, located by its header (a few lines until the candle reader lands). */
function csvCloses(path: string): Float64Array {
  const lines = readFileSync(new URL(path, fixtures), 'utf8').split(/\r?\n/).filter((line) => line !== '');
  const column = lines[0].split(',').indexOf('Close');
  assert.ok(column > 0, `${path} has a Close column`);
  return Float64Array.from(lines.slice(1), (line) => Number(line.split(',')[column]));
}

function jsonCloses(path: string): Float64Array {
  const rows = JSON.parse(readFileSync(new URL(path, fixtures), 'utf8')) as number[][];
  return Float64Array.from(rows, (row) => row[4]);
}

const SERIES: [string, () => Float64Array, number][] = [
  ['EURUSD.csv (H1, backtesting.py)', () => csvCloses('EURUSD.csv'), 5000],
  ['smc/EURUSD_15M.csv (M15, MetaTrader)', () => csvCloses('smc/EURUSD_15M.csv'), 24424],
  ['freqtrade/UNITTEST_BTC-1m.json (M1, flat runs)', () => jsonCloses('freqtrade/UNITTEST_BTC-1m.json'), 13681],
];

function assertClose(actual: number, expected: number, where: string): void {
  const scale = Math.max(Math.abs(actual), Math.abs(expected));
  assert.ok(Math.abs(actual - expected) <= 1e-9 * scale, `${where}: ${actual} vs oracle ${expected}`);
}

for (const [name, load, rows] of SERIES) {
  test(`EMA agrees with technicalindicators to 1e-9 on ${name}`, () => {
    const closes = load();
    assert.equal(closes.length, rows);
    assert.ok(closes.every(Number.isFinite));
    for (const period of [9, 20, 50, 200]) {
      const ours = ema(closes, period);
      const oracle = EMA.calculate({ period, values: [...closes] });
      assert.equal(oracle.length, rows - period + 1);
      for (let i = 0; i < period - 1; i++) assert.ok(Number.isNaN(ours[i]), `EMA_${period}[${i}] is NaN`);
      for (let i = period - 1; i < rows; i++) assertClose(ours[i], oracle[i - period + 1], `EMA_${period}[${i}]`);
    }
  });

  test(`RSI agrees with trading-signals (Wilder) to 1e-9 on ${name}`, () => {
    const closes = load();
    for (const period of [7, 14, 21]) {
      const ours = rsi(closes, period);
      const oracle = new RSI(period);
      let compared = 0;
      for (let i = 0; i < rows; i++) {
        const expected = oracle.update(closes[i], false);
        if (i < period) {
          assert.equal(expected, null);
          assert.ok(Number.isNaN(ours[i]), `RSI_${period}[${i}] is NaN`);
        } else {
          assertClose(ours[i], expected as number, `RSI_${period}[${i}]`);
          compared++;
        }
      }
      assert.equal(compared, rows - period);
    }
  });
}
