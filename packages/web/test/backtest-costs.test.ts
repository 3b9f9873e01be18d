// The cost fields of the backtest form (docs/engine.md §13): the typical spread pre-filled and
// kept once edited, the checks before sending, and the request fields of both calls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { costsError, costsForSymbol, costFormFields, initialCosts, COST_FORM_MESSAGES } from '../src/features/costs/costs.js';
import { customRequestFields, formError, initialForm, officialRequest, paramLayout } from '../src/pages/backtest/form.js';
import { costsSummary, rSequenceOf } from '../src/pages/backtest/result.js';

describe('backtest cost fields', () => {
  it('pre-fills the symbol’s typical spread, follows symbol changes until the user types one', () => {
    assert.equal(initialCosts('EURUSD').spread, '1.3');
    assert.equal(initialCosts('CORN').spread, '', 'no published spread');
    const changed = costsForSymbol(initialCosts('EURUSD'), 'XAUUSD');
    assert.equal(changed.spread, '4.1');
    const edited = { ...initialCosts('EURUSD'), spread: '2', spreadEdited: true };
    assert.equal(costsForSymbol(edited, 'GBPUSD').spread, '2');
    assert.equal(initialForm({ symbol: 'eurusd' }).costs.spread, '1.3');
  });

  it('sends the costs in both calls: JSON numbers (decimal comma read), multipart text', () => {
    const form = { ...initialForm({ symbol: 'EURUSD' }), officialStrategy: 'englobante_entry', start: '2025-01-01', end: '2025-01-31' };
    form.costs = { ...form.costs, spread: '1,5', commission: '0.7', slippage: '0,2', spreadByHour: '' };
    const body = officialRequest(form, {});
    assert.deepEqual([body.spread_pips, body.commission_pips, body.slippage_pips, body.spread_from_data], [1.5, 0.7, 0.2, undefined]);
    const hours = Array.from({ length: 24 }, (_, h) => (h < 7 ? '2,5' : '1'));
    form.costs = { ...form.costs, spreadByHour: hours.join(' ') };
    assert.deepEqual(officialRequest(form, {}).spread_by_hour, hours.map((h) => Number(h.replace(',', '.'))));
    const fields = customRequestFields({ ...form, mode: 'custom', customSymbol: 'EURUSD' }, {});
    assert.equal(fields.spread_pips, '1.5');
    assert.equal(fields.spread_from_data, 'true');
    assert.equal(fields.spread_by_hour.split(' ').length, 24);
    assert.deepEqual(costFormFields({ ...initialCosts(''), spreadFromData: false }), {}, 'empty fields: no cost');
  });

  it('refuses bad values before sending', () => {
    const costs = initialCosts('EURUSD');
    assert.equal(costsError({ ...costs, spread: '-1' }), COST_FORM_MESSAGES.badAmount('Spread'));
    assert.equal(costsError({ ...costs, commission: 'abc' }), COST_FORM_MESSAGES.badAmount('Commission'));
    assert.equal(costsError({ ...costs, slippage: '5000' }), COST_FORM_MESSAGES.badAmount('Slippage'));
    assert.equal(costsError({ ...costs, spreadByHour: '1 2 3' }), 'Spread par heure : 24 valeurs attendues (heures UTC 0 à 23, séparées par des espaces ou des points-virgules), 3 saisies.');
    assert.equal(costsError(costs), null);
    const form = { ...initialForm({ symbol: 'EURUSD' }), officialStrategy: 'englobante_entry', start: '2025-01-01', end: '2025-01-31' };
    form.costs = { ...form.costs, spread: 'x' };
    assert.equal(formError(form, paramLayout(form, null, null), { isAdmin: false, credits: 10, loggedIn: true }), COST_FORM_MESSAGES.badAmount('Spread'));
  });

  it('reads r_sequence and the costs of an answer', () => {
    assert.deepEqual(rSequenceOf({ r_sequence: { tp1: [1, -1.1], tp2: [2, -1.1] } }), { tp1: [1, -1.1], tp2: [2, -1.1] });
    assert.equal(rSequenceOf({ r_sequence: { tp1: [1, 'x'], tp2: [] } }), null);
    assert.equal(rSequenceOf({}), null);
    assert.equal(costsSummary({ costs: { spread_pips: 1.3, commission_pips: 0, slippage_pips: 0.5, spread_by_hour: null } }), 'spread 1,3 pips · slippage 0,5 pips');
    assert.equal(costsSummary({ costs: { spread_pips: 0, commission_pips: 0, slippage_pips: 0 } }), null);
  });
});
