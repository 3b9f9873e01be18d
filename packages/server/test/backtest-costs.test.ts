// Trading costs on the backtest calls (docs/api.md, docs/engine.md §13): the fields reach core,
// the answer states them with the R sequence the result view draws its Monte Carlo from, and every
// bad value is a 400 naming its field in French, before any credit is charged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readWorkbookSheet } from '@bt/core/report';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { balance, fixture, funded, runBacktest } from './support/work.js';

const t = useTestApp({ library: true });

describe(`backtest costs (${TEST_DIALECT})`, () => {
  it('costs reach the engine: the answer and the workbook state them, r_sequence holds the net R', async () => {
    const user = await funded(t, 10);
    const plain = await runBacktest(t, user.key, {});
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual(plain.body.costs, { spread_pips: 0, spread_by_hour: null, spread_from_data: false, spread_point_size: null, spread_data_candles: 0, commission_pips: 0, commission_per_lot: 0, account_currency: null, slippage_pips: 0 });
    const paid = await runBacktest(t, user.key, { spread_pips: '1,3', commission_per_lot: 7, account_currency: 'usd', slippage_pips: 0.5 });
    assert.equal(paid.status, 200, paid.text);
    assert.deepEqual(paid.body.costs, { spread_pips: 1.3, spread_by_hour: null, spread_from_data: false, spread_point_size: null, spread_data_candles: 0, commission_pips: 0, commission_per_lot: 7, account_currency: 'USD', slippage_pips: 0.5 });
    const resolved = paid.body.statistics.global.resolved;
    assert.equal(paid.body.r_sequence.tp1.length, resolved);
    const total = paid.body.r_sequence.tp1.reduce((a: number, b: number) => a + b, 0);
    assert.ok(Math.abs(total - paid.body.statistics.global.tp1.totalR) < 1e-6, 'the same R the statistics sum');
    assert.ok(paid.body.statistics.global.tp1.expectancyR < plain.body.statistics.global.tp1.expectancyR, 'costs lower the expectancy');
    const bytes = await t.app.deps.storage.read(`results/${user.id}/${paid.body.folder}/${paid.body.folder}.xlsx`);
    const config = Object.fromEntries((await readWorkbookSheet(bytes, 'Config')).rows.map((r) => [r[0], r[1]]));
    assert.deepEqual([config.spread_pips, config.commission_per_lot, config.account_currency, config.slippage_pips], [1.3, 7, 'USD', 0.5]);
    const byHour = await runBacktest(t, user.key, { spread_by_hour: Array.from({ length: 24 }, (_, h) => (h < 7 ? 2 : 1)), spread_from_data: 'on' });
    assert.equal(byHour.status, 200, byHour.text);
    assert.equal(byHour.body.costs.spread_by_hour.length, 24);
    assert.equal(byHour.body.costs.spread_from_data, true);
    assert.equal(await balance(t, user.id), 4);
  });

  it('bad cost values: 400 naming the field in French, nothing charged', async () => {
    const user = await funded(t, 2);
    const hours = (n: number) => Array.from({ length: n }, () => 1);
    const cases: [Record<string, unknown>, string][] = [
      [{ spread_pips: -1 }, 'Valeur invalide pour spread_pips : « -1 » (un nombre entre 0 et 1 000).'],
      [{ spread_pips: 'abc' }, 'Valeur invalide pour spread_pips : « abc » (un nombre entre 0 et 1 000).'],
      [{ spread_pips: 'NaN' }, 'Valeur invalide pour spread_pips : « NaN » (un nombre entre 0 et 1 000).'],
      [{ spread_pips: '1e309' }, 'Valeur invalide pour spread_pips : « 1e309 » (un nombre entre 0 et 1 000).'],
      [{ commission_pips: 1001 }, 'Valeur invalide pour commission_pips : « 1001 » (un nombre entre 0 et 1 000).'],
      [{ slippage_pips: { x: 1 } }, 'Valeur invalide pour slippage_pips : « {"x":1} » (un nombre entre 0 et 1 000).'],
      [{ commission_per_lot: 20_000, account_currency: 'USD' }, 'Valeur invalide pour commission_per_lot : « 20000 » (un nombre entre 0 et 10 000).'],
      [{ spread_by_hour: hours(3) }, 'Valeur invalide pour spread_by_hour : 24 spreads attendus (en pips, heures UTC 0 à 23), 3 reçus.'],
      [{ spread_by_hour: [...hours(23), -4] }, 'Valeur invalide pour spread_by_hour (heure 23) : « -4 » (un nombre de pips entre 0 et 1 000).'],
      [{ spread_from_data: 'peut-être' }, 'Valeur invalide pour spread_from_data : « peut-être » (true ou false).'],
      [{ spread_point_size: 0 }, 'Valeur invalide pour spread_point_size : « 0 » (un prix > 0, par exemple 0.00001).'],
      [{ account_currency: 'dollars', commission_per_lot: 7 }, 'Valeur invalide pour account_currency : « dollars » (un code de devise de trois lettres, par exemple USD).'],
      [{ commission_pips: 1, commission_per_lot: 7, account_currency: 'USD' }, 'Indique la commission en pips (commission_pips) ou par lot (commission_per_lot), pas les deux.'],
      [{ commission_per_lot: 7 }, 'Indique la devise du compte (account_currency) avec commission_per_lot : EUR ou USD.'],
      [{ commission_per_lot: 7, account_currency: 'GBP' }, 'account_currency : une commission en GBP demanderait un taux de change que bt n’a pas ; choisis EUR ou USD, ou indique commission_pips.'],
    ];
    for (const [fields, detail] of cases) {
      const res = await runBacktest(t, user.key, fields);
      assert.deepEqual([res.status, res.body.detail], [400, detail], JSON.stringify(fields));
    }
    assert.equal(await balance(t, user.id), 2, 'no credit charged');
    const anonymous = await t.request('POST', '/api/run_backtest', { json: { spread_pips: 1 } });
    assert.equal(anonymous.status, 401);
  });

  it('an upload takes the same fields as form text; GET /api/pip gives the typical spread', async () => {
    const user = await funded(t, 2);
    const form = new FormData();
    for (const [k, v] of Object.entries({ strategy: 'englobante_entry', sl_pips: '10', tp1_pips: '10', symbol: 'eurusd', timeframe: 'H1', spread_pips: '1,3', spread_by_hour: '', slippage_pips: 'x' })) form.append(k, v);
    form.append('csv_file', new Blob([fixture('official/EURUSD_H1_custom-upload.csv')]), 'eurusd.csv');
    const bad = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form });
    assert.deepEqual([bad.status, bad.body.detail], [400, 'Valeur invalide pour slippage_pips : « x » (un nombre entre 0 et 1 000).']);
    const good = new FormData();
    for (const [k, v] of Object.entries({ strategy: 'englobante_entry', sl_pips: '10', tp1_pips: '10', symbol: 'eurusd', timeframe: 'H1', spread_pips: '1,3', spread_from_data: 'true' })) good.append(k, v);
    good.append('csv_file', new Blob([fixture('official/EURUSD_H1_custom-upload.csv')]), 'eurusd.csv');
    const res = await t.request('POST', '/api/upload_csv_and_backtest', { key: user.key, form: good });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.costs.spread_pips, 1.3);
    assert.ok(res.body.warnings.some((w: string) => w === "Pas de colonne Spread renseignée dans les données : le spread indiqué (ou 0) s'applique à chaque bougie."));
    assert.equal(await balance(t, user.id), 0);
    const pip = await t.request('GET', '/api/pip?symbol=EURUSD');
    assert.equal(pip.body.typical_spread_pips, 1.3);
    assert.equal((await t.request('GET', '/api/pip?symbol=CORN')).body.typical_spread_pips, null);
  });
});
