// The result view's plain logic: the card's figures (from the answer or the Global sheet: equal),
// the golden hours (from the answer or the workbook: equal), the title, the equity curve and the
// chart markers.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { NO_ELIGIBLE_HOUR, NO_GOLDEN_HOUR } from '@bt/core/format';
import { barTime, equityCurve, parseResultChart, resultTitle, tradeMarkers, tradeWindow, type ChartTrade } from '../src/features/results/chartAnswer.js';
import { figureCells, figuresFromGlobalSheet, figuresFromStatistics } from '../src/features/results/figures.js';
import { goldenFromAnswer, goldenFromSheets, type GoldenHourEntry } from '../src/features/results/golden.js';
import { goldenHourText } from '../src/features/results/goldenText.js';
import { chartSeries } from '../src/features/results/chartData.js';
import { realResult, type RealResult } from './support/real-result.js';

let march: RealResult;
before(async () => {
  march = await realResult({ file: 'smc/EURUSD_15M.csv', utcOffset: '+02:00', symbol: 'EURUSD', strategy: 'fvg_pullback_multi', start: '2023-03-01', end: '2023-03-31', slPips: 20 });
});

const trade = (id: number, patch: Partial<ChartTrade>): ChartTrade => ({
  id, side: 'buy', entryTime: Date.UTC(2023, 2, 1, id), entryPrice: 1.05, sl: 1.048, tp1: 1.052, tp2: 1.054, outcome: 'sl',
  tp1Time: null, tp2Time: null, slTime: Date.UTC(2023, 2, 1, id, 30), rTp1: -1, ...patch,
});

describe('the result card', () => {
  it('shows the same figures from the backtest answer and from the workbook’s Global sheet, in French', () => {
    const fromAnswer = figuresFromStatistics(march.statistics)!;
    const fromSheet = figuresFromGlobalSheet(march.sheets.get('Global')!.rows)!;
    assert.deepEqual(fromSheet, fromAnswer);
    const cells = Object.fromEntries(figureCells(fromAnswer).map((c) => [c.id, c.value]));
    assert.deepEqual(cells, {
      trades: '247',
      winrateTp1: '57,14\u202f%',
      winrateTp2: '41,98\u202f%',
      profitFactor: cells.profitFactor,
      expectancyR: cells.expectancyR,
      maxDrawdownR: cells.maxDrawdownR,
      longestLosingStreak: cells.longestLosingStreak,
    });
    for (const value of Object.values(cells)) assert.doesNotMatch(value, /\d\.\d/, `${value}: no decimal point`);
    assert.match(cells.expectancyR, /^[+-]?\d+,\d{2}\u202fR$/);
    assert.match(cells.longestLosingStreak, /^\d+ trades?$/);
  });

  it('profit factor: ∞ without a loss, — without a resolved trade', () => {
    const base = figuresFromStatistics({ global: { trades: 3, tp1: { winrate: 1, profitFactor: null, totalR: 3 }, tp2: {} } })!;
    assert.equal(figureCells(base).find((c) => c.id === 'profitFactor')!.value, '∞');
    const none = figuresFromStatistics({ global: { trades: 2, tp1: { winrate: null, profitFactor: null, totalR: 0 }, tp2: {} } })!;
    assert.equal(figureCells(none).find((c) => c.id === 'profitFactor')!.value, '—');
    assert.equal(figureCells(none).find((c) => c.id === 'winrateTp1')!.value, '—');
  });

  it('golden hours read from the workbook equal the answer’s; none says why', () => {
    const block = march.goldenHours as { golden_hours: GoldenHourEntry[]; min_trades: number };
    const fromAnswer = goldenFromAnswer(block.golden_hours, block);
    const fromSheets = goldenFromSheets(march.sheets.get('Par_Heure')!, march.sheets.get('Config')!.rows);
    assert.deepEqual(fromSheets.hours.map((h) => [h.hour, h.TP1, h.trades]), fromAnswer.hours.map((h) => [h.hour, h.TP1, h.trades]));
    assert.deepEqual(fromAnswer.hours.map((h) => h.hour), [14]);
    assert.equal(fromSheets.minTrades, 13);
    assert.equal(goldenHourText(fromAnswer.hours[0]), '14h · 81,25\u202f% · 16 trades');
    assert.equal(goldenFromAnswer([], { eligible_hours: 4, min_trades: 3 }).emptyText, NO_GOLDEN_HOUR);
    assert.equal(goldenFromAnswer([], { eligible_hours: 0, min_trades: 3 }).emptyText, NO_ELIGIBLE_HOUR);
    assert.equal(goldenFromSheets(null, [['golden_hours_utc', NO_GOLDEN_HOUR]]).emptyText, NO_GOLDEN_HOUR);
  });

  it('the hourly chart stars only the golden hours and fades the hours under the minimum', () => {
    const block = march.goldenHours as { golden_hours: GoldenHourEntry[]; min_trades: number };
    const series = chartSeries(march.statistics, block.golden_hours, block.min_trades);
    assert.deepEqual(series.hours.filter((p) => p.golden).map((p) => p.label), ['14h']);
    const nine = series.hours.find((p) => p.label === '09h')!;
    assert.deepEqual([nine.winrate, nine.resolved, nine.faded, nine.golden], [100, 7, true, false], '7 of 7, fewer than 13 trades: faded, never starred');
    const noon = series.hours.find((p) => p.label === '12h')!;
    assert.deepEqual([noon.faded, noon.golden], [false, false], '12h is eligible and below the global rate');
    assert.ok(Math.abs(series.global! - 57.142857) < 1e-4);
  });

  it('the title names instrument, timeframe, strategy, period and stop in French', () => {
    const parts = { symbol: 'EURUSD', timeframe: 'M15', strategyLabel: 'FVG pullback multi', startDate: '2023-03-01', endDate: '2023-03-31', slMode: 'external', slPips: 20 };
    assert.equal(resultTitle(parts), 'EURUSD · M15 · FVG pullback multi · 1er–31 mars 2023 · SL 20');
    assert.equal(resultTitle({ ...parts, slMode: 'internal', slPips: null }), 'EURUSD · M15 · FVG pullback multi · 1er–31 mars 2023 · SL interne');
    assert.equal(resultTitle({ ...parts, startDate: '2023-02-27', endDate: '2023-03-03', slPips: 12.5 }), 'EURUSD · M15 · FVG pullback multi · 27 février\u2009–\u20093 mars 2023 · SL 12,5');
  });
});

describe('the result chart', () => {
  it('reads the chart answer: trades in entry order, candles as columns, bad entries left out', () => {
    const chart = parseResultChart({
      folder: 'F', symbol: 'EURUSD', timeframe: 'M15', chart_timeframe: 'M15', pip_size: 0.0001, start_date: '2023-03-01', end_date: '2023-03-31',
      candles: { time: [1, 2], open: [1, 1], high: [2, 2], low: [0, 0], close: [1, 1] },
      trades: [{ id: 2, entry_time: 20, entry_price: 1.1, outcome: 'tp2' }, { id: 1, entry_time: 10, entry_price: 1.2, side: 'sell' }, { id: 3, entry_price: 1 }, null],
    })!;
    assert.deepEqual(chart.trades.map((t) => [t.id, t.side, t.outcome]), [[1, 'sell', 'open'], [2, 'buy', 'tp2']]);
    assert.equal(chart.candles!.time.length, 2);
    assert.equal(parseResultChart({ folder: 'F', trades: [], candles: { time: [1, 2], open: [1] } })!.candles, null, 'ragged columns are refused');
    assert.equal(parseResultChart({ trades: [] }), null);
  });

  it('the equity curve starts at 0, skips open trades and ends at the sum of R; the drawdown is under its peak', () => {
    const trades = [trade(1, { outcome: 'tp1', rTp1: 1 }), trade(2, { outcome: 'tp2', rTp1: 2 }), trade(3, { rTp1: -1 }), trade(4, { outcome: 'open', rTp1: 0 }), trade(5, { rTp1: -1 }), trade(6, { outcome: 'tp1', rTp1: 1.5 })];
    const curve = equityCurve(trades);
    assert.deepEqual(curve.map((p) => p.equity), [0, 1, 3, 2, 1, 2.5]);
    assert.deepEqual(curve.map((p) => p.drawdown), [0, 0, 0, -1, -2, -0.5]);
    assert.deepEqual(curve.map((p) => p.tradeId), [null, 1, 2, 3, 5, 6]);
  });

  it('one entry marker per trade on its bar, exit markers for decided trades, in time order', () => {
    const times = [0, 15, 30, 45, 60, 75].map((m) => Date.UTC(2023, 2, 1, 1, m));
    const trades = [
      trade(1, { entryTime: times[1] + 60_000, outcome: 'tp1', tp1Time: times[3] + 1000 }),
      trade(2, { side: 'sell', entryTime: times[1], outcome: 'open', slTime: null }),
      trade(3, { entryTime: times[4], outcome: 'sl', slTime: times[5] }),
    ];
    const markers = tradeMarkers(trades, times);
    assert.equal(markers.filter((m) => m.kind === 'entry').length, 3);
    assert.deepEqual(markers.map((m) => [m.id, m.time]), [
      ['entry-1', times[1]], ['entry-2', times[1]], ['exit-1', times[3]], ['entry-3', times[4]], ['exit-3', times[5]],
    ]);
    assert.deepEqual(markers.filter((m) => m.kind === 'exit').map((m) => m.text), ['TP1', 'SL']);
    assert.equal(barTime(times, times[0] - 1), null);
    assert.equal(barTime(times, times[5] + 10 * 60_000), times[5]);
    const w = tradeWindow(trades[0], 'M15', 4);
    assert.deepEqual([w.from, w.to], [trades[0].entryTime - 4 * 900_000, trades[0].tp1Time! + 4 * 900_000]);
  });
});
