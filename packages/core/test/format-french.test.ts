// French display of numbers, prices, dates and Config rows (docs/report.md "Display rules").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  configLabel, configValueText, dayToMs, formatCellFr, formatCompactFr, formatDateTimeFr, formatDayFr, formatDayMonthFr, MISSING, formatIntegerFr, formatNumberFr,
  formatPercentFr, formatPeriodFr, formatPriceFr, formatRFr, priceDecimals, rangesTextFr,
} from '@bt/core/format';
import { priceFormat } from '@bt/core/report';

const N = '\u202f'; // narrow no-break space: thousands and before % (Intl fr-FR)

test('numbers: decimal comma, grouped thousands, no -0', () => {
  assert.equal(formatIntegerFr(1004), `1${N}004`);
  assert.equal(formatNumberFr(1234567.891), `1${N}234${N}567,89`);
  assert.equal(formatNumberFr(-0.001), '0,00');
  assert.equal(formatCompactFr(2.5), '2,5');
  assert.equal(formatCompactFr(3), '3');
  assert.equal(formatNumberFr(null), '—');
  assert.equal(formatNumberFr(Number.NaN), '—');
});

test('percentages, R and prices with the instrument’s decimals (the workbook’s rule)', () => {
  assert.equal(formatPercentFr(0.5714285), `57,14${N}%`);
  assert.equal(formatPercentFr(1), `100,00${N}%`);
  assert.equal(formatRFr(3), `+3,00${N}R`);
  assert.equal(formatRFr(-1), `-1,00${N}R`);
  assert.equal(formatRFr(0), `0,00${N}R`);
  assert.deepEqual([0.0001, 0.01, 0.1, 1, 0.005, 0.0000001].map(priceDecimals), [5, 3, 2, 1, 4, 8]);
  for (const pip of [0.0001, 0.01, 1, 0.005]) assert.equal(priceFormat(pip), `0.${'0'.repeat(priceDecimals(pip))}`, 'the workbook writes prices the same way');
  assert.equal(formatPriceFr(1.07219, 0.0001), '1,07219');
  assert.equal(formatPriceFr(4476.861, 1), `4${N}476,9`);
  assert.equal(formatPriceFr(1.05, 0.0001), '1,05000');
});

test('dates: UTC days and periods in French', () => {
  assert.equal(formatDayFr(Date.UTC(2023, 2, 1, 23, 30)), '1er mars 2023');
  assert.equal(formatDayFr(Date.UTC(2023, 2, 2)), '2 mars 2023');
  assert.equal(formatPeriodFr(Date.UTC(2023, 2, 1), Date.UTC(2023, 2, 31)), '1er–31 mars 2023');
  assert.equal(formatPeriodFr(Date.UTC(2022, 11, 28), Date.UTC(2023, 0, 3)), '28 décembre 2022\u2009–\u20093 janvier 2023');
  assert.equal(formatDateTimeFr(Date.UTC(2023, 2, 1, 14, 5)), '01/03/2023 14:05');
  assert.equal(rangesTextFr([{ first: Date.UTC(2017, 3, 19, 9), last: Date.UTC(2018, 1, 7) }, { first: Date.UTC(2022, 9, 9), last: Date.UTC(2023, 9, 2) }]), 'du 19 avril 2017 au 7 février 2018, puis du 9 octobre 2022 au 2 octobre 2023');
  assert.equal(dayToMs('2023-02-30'), null);
});

test('dates: the first of a month is written 1er, and only it', () => {
  assert.equal(formatDayFr(Date.UTC(2023, 0, 1)), '1er janvier 2023');
  for (const day of [10, 11, 21, 31]) assert.equal(formatDayFr(Date.UTC(2023, 0, day)), `${day} janvier 2023`, 'no 1er inside 10, 11, 21 or 31');
  assert.equal(formatDayMonthFr(Date.UTC(2023, 3, 1)), '1er avril');
  assert.equal(formatDayMonthFr(Date.UTC(2023, 3, 21)), '21 avril');
  assert.equal(formatDayMonthFr(Number.NaN), MISSING);
  // Both ends of a range, shared or not.
  assert.equal(formatPeriodFr(Date.UTC(2023, 0, 1), Date.UTC(2023, 2, 1)), '1er janvier\u2009–\u20091er mars 2023');
  assert.equal(formatPeriodFr(Date.UTC(2022, 11, 1), Date.UTC(2023, 0, 1)), '1er décembre 2022\u2009–\u20091er janvier 2023');
  assert.equal(formatPeriodFr(Date.UTC(2023, 0, 1), Date.UTC(2023, 0, 1)), '1er janvier 2023');
  assert.equal(formatPeriodFr(Date.UTC(2023, 0, 11), Date.UTC(2023, 0, 21)), '11–21 janvier 2023');
  assert.equal(rangesTextFr([{ first: Date.UTC(2022, 2, 1), last: Date.UTC(2023, 8, 11) }]), 'du 1er mars 2022 au 11 septembre 2023');
  assert.equal(dayToMs('2023-03-01'), Date.UTC(2023, 2, 1));
});

test('sheet cells in French: percent labels, prices by pip, R and pips, counts', () => {
  assert.equal(formatCellFr(0.5714, 'Winrate TP1'), `57,14${N}%`);
  assert.equal(formatCellFr(65.3, 'Winrate TP1'), `65,30${N}%`, 'an older workbook’s percentage');
  assert.equal(formatCellFr(1.07219, 'Prix entrée', { pipSize: 0.0001 }), '1,07219');
  assert.equal(formatCellFr(0.2, 'Espérance TP1 (R)'), '0,20');
  assert.equal(formatCellFr(1.5, 'Profit factor TP1'), '1,50');
  assert.equal(formatCellFr(12.5, 'MFE (pips)'), '12,5');
  assert.equal(formatCellFr(1004, 'Trades'), `1${N}004`);
  assert.equal(formatCellFr('2023-03-01T14:00:00.000Z', 'Entrée (UTC)'), '2023-03-01 14:00');
  assert.equal(formatCellFr(true, 'Ambigu'), 'Oui');
  assert.equal(formatCellFr(null, 'SL'), '');
});

test('Config rows: French labels (the parameters’ catalogue labels too), values in words', () => {
  assert.equal(configLabel('sl_pips'), 'Stop-loss (pips)');
  assert.equal(configLabel('confirm_candle'), 'Bougie de confirmation');
  assert.equal(configLabel('min_wait_candles'), 'Attente min (bougies)');
  assert.equal(configLabel('some_new_row'), 'some_new_row', 'an unknown row keeps its name');
  assert.equal(configValueText('sl_mode', 'internal'), 'Interne (au bord de la zone)');
  assert.equal(configValueText('strategy', 'fvg_pullback_multi'), 'FVG pullback multi');
  assert.equal(configValueText('symbol', 'XAUUSD'), 'Or (XAUUSD)');
  assert.equal(configValueText('confirm_candle', false), 'Non');
  assert.equal(configValueText('pip_size', 0.0001), '0,0001');
  assert.equal(configValueText('min_overlap_ratio', null), '—');
  assert.equal(configLabel('spread_by_hour_pips'), 'Spread par heure UTC (pips)');
  assert.equal(configValueText('spread_by_hour_pips', '1.2 0.8 1'), '1,2 0,8 1');
});
