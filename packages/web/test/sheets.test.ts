import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCellFr } from '@bt/core/format';
import { PUBLIC_SHEETS, RESULT_SHEETS, forgetFailedSheets, metricValueRows, sheetLabel, sheetNames, sheetPipSize, sheetTable } from '../src/pages/stats/sheets.js';

describe('workbook answers for the statistics modals', () => {
  it('reads sheet lists of names or of objects with name, sheet, title or id', () => {
    assert.deepEqual(sheetNames({ sheets: ['Config', 'Global'] }), ['Config', 'Global']);
    assert.deepEqual(sheetNames({ sheets: [{ name: 'Config' }, { sheet: 'Global' }, { title: 'Sessions' }, { id: 'Par_Heure' }, { rows: 3 }] }), ['Config', 'Global', 'Sessions', 'Par_Heure']);
    assert.deepEqual(sheetNames({ sheets: ['Config', 'Trades', 'Global'] }, PUBLIC_SHEETS), ['Config', 'Global']);
    assert.deepEqual(sheetNames({ sheets: 'nope' }), []);
    assert.deepEqual(sheetNames(null), []);
    assert.ok(RESULT_SHEETS.includes('Trades') && !PUBLIC_SHEETS.includes('Trades' as never));
  });

  it('labels the tabs in French', () => {
    assert.deepEqual(
      ['Config', 'Global', 'Sessions', 'Par_Heure', 'Jour_Semaine', 'TP2_Global', 'Trades'].map(sheetLabel),
      ['Configuration', 'Résumé global', 'Par session', 'Par heure', 'Par jour', 'TP2 global', 'Trades'],
    );
  });

  it('reads headers plus rows, rows as arrays or objects', () => {
    assert.deepEqual(sheetTable({ headers: ['Heure (UTC)', 'Trades'], rows: [[0, 3]] }), { headers: ['Heure (UTC)', 'Trades'], rows: [[0, 3]] });
    assert.deepEqual(sheetTable({ rows: [{ a: 1, b: 2 }, { a: 3, b: 4 }] }), { headers: ['a', 'b'], rows: [[1, 2], [3, 4]] });
    assert.deepEqual(sheetTable(undefined), { headers: [], rows: [] });
  });

  it('reads the Config sheet as metric/value pairs, whichever side its headers put them', () => {
    const config = sheetTable({ headers: ['metric', 'value'], rows: [['symbol', 'EURUSD'], ['sl_mode', 'internal']] });
    assert.deepEqual(metricValueRows(config), [{ metric: 'symbol', value: 'EURUSD' }, { metric: 'sl_mode', value: 'internal' }]);
    const swapped = sheetTable({ rows: [{ valeur: 'M15', 'métrique': 'timeframe' }] });
    assert.deepEqual(metricValueRows(swapped), [{ metric: 'timeframe', value: 'M15' }]);
  });

  it('forgets a failed sheet when its tab is chosen again, so it is asked for again', () => {
    type S = { status: 'loading' | 'ready' | 'error' };
    const sheets: Record<string, S> = { Config: { status: 'ready' }, Global: { status: 'error' }, Sessions: { status: 'loading' } };
    assert.deepEqual(forgetFailedSheets(sheets, ['Global', 'Config']), { Config: { status: 'ready' }, Sessions: { status: 'loading' } });
    assert.deepEqual(sheets.Global, { status: 'error' }, 'the states given are not changed');
    // A failed Config goes with any tab chosen: it is fetched with every sheet.
    assert.deepEqual(forgetFailedSheets({ Config: { status: 'error' } as S, Global: { status: 'ready' } as S }, ['Global', 'Config']), { Global: { status: 'ready' } });
    // Nothing failed: the same object, so no new state and no new request.
    assert.equal(forgetFailedSheets(sheets, ['Config', 'Sessions']), sheets);
    assert.equal(forgetFailedSheets(sheets, ['Par_Heure']), sheets);
  });

  it('writes prices with the pip size on the Trades sheet only: elsewhere SL is a count of trades', () => {
    const config = sheetTable({ headers: ['metric', 'value'], rows: [['symbol', 'EURUSD'], ['pip_size', 0.0001]] });
    assert.equal(sheetPipSize('Trades', config), 0.0001);
    assert.equal(formatCellFr(1.06893, 'SL', { pipSize: sheetPipSize('Trades', config) }), '1,06893');
    for (const sheet of ['Sessions', 'Jour_Semaine', 'Global', 'TP2_Global']) {
      assert.equal(sheetPipSize(sheet, config), null, sheet);
      // 50 trades stopped in the Asian session, not a price of 50,00000.
      assert.equal(formatCellFr(50, 'SL', { pipSize: sheetPipSize(sheet, config) }), '50', sheet);
    }
    assert.equal(sheetPipSize('Trades', null), null, 'Config not read yet');
    assert.equal(sheetPipSize('Trades', sheetTable({ headers: ['metric', 'value'], rows: [['pip_size', 'x']] })), null);
  });
});
