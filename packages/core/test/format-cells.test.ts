import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSheet, formatCell, formatPercentCell, isPercentLabel, SHEET_TAB_LABELS } from '@bt/core/format';

test('percent cells: fractions 0..1 times 100, 2 decimals and %', () => {
  assert.equal(formatPercentCell(0.5), '50.00%');
  assert.equal(formatPercentCell(4 / 7), '57.14%');
  assert.equal(formatPercentCell(0), '0.00%');
  assert.equal(formatPercentCell(1), '100.00%');
  assert.equal(formatPercentCell(0.00049), '0.05%');
  // Older workbooks stored percentages: shown as they are.
  assert.equal(formatPercentCell(65.3), '65.30%');
  assert.equal(formatPercentCell('0.25'), '25.00%');
  assert.equal(formatPercentCell(null), '');
  assert.equal(formatPercentCell('n/a'), 'n/a');
});

test('cells by label: percent labels formatted, other numbers without binary noise', () => {
  assert.equal(formatCell(0.8, 'Winrate TP1'), '80.00%');
  assert.equal(formatCell(0.4902, 'IC95 bas TP1'), '49.02%');
  assert.equal(formatCell(0.3, 'Taux SL'), '30.00%');
  assert.equal(formatCell(0.62, 'winrate_tp1'), '62.00%'); // older workbooks' spellings
  assert.equal(formatCell(1, 'Trades'), '1'); // a count of 1 is not 100 %
  assert.equal(formatCell(0.1 + 0.2, 'Espérance TP1 (R)'), '0.3');
  assert.equal(formatCell(true, 'value'), 'Oui');
  assert.equal(formatCell(null, 'Winrate TP1'), '');
  assert.equal(formatCell('2024-01-08T08:00:00.000Z', 'Premier trade (UTC)'), '2024-01-08 08:00'); // as the workbook shows it
  assert.equal(formatCell('2024-01-08T08:00:30Z', 'Entrée (UTC)'), '2024-01-08 08:00:30');
  assert.equal(formatCell('2024-01-08', 'start_date'), '2024-01-08');
  assert.equal(formatCell('2024-01-08T08:00:00+02:00', 'texte'), '2024-01-08T08:00:00+02:00'); // not UTC: left as written
  assert.equal(isPercentLabel('Trades'), false);
  assert.equal(isPercentLabel(3), false);
});

test('modal tabs: French labels, Global first by default, else the first sheet, else none', () => {
  assert.equal(SHEET_TAB_LABELS.Global, 'Résumé global');
  assert.equal(SHEET_TAB_LABELS.Jour_Semaine, 'Par jour');
  assert.equal(SHEET_TAB_LABELS.Trades, undefined);
  assert.equal(defaultSheet(['Config', 'Global', 'Sessions']), 'Global');
  assert.equal(defaultSheet(['Config', 'Sessions']), 'Config');
  assert.equal(defaultSheet([]), null);
});
