import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FORM_MESSAGES, buildParams, canSubmit, customRequestFields, formError, initialForm, officialRequest, paramLayout, symbolFromQuery, type BacktestFormState } from '../src/pages/backtest/form.js';
import { parseUserStrategies, personalPickerPlaceholder, signatureFromAnswer } from '../src/pages/backtest/userStrategies.js';

const context = { isAdmin: false, credits: 10, loggedIn: true };

function form(patch: Partial<BacktestFormState> = {}): BacktestFormState {
  return { ...initialForm(), officialStrategy: 'ob_pullback_pure_rsi', symbol: 'EURUSD', start: '2025-01-01', end: '2025-01-31', ...patch };
}

describe('backtest form: the personal picker says where its list stands', () => {
  it('loading, failed, empty or to choose; a visitor is asked to sign in', () => {
    assert.equal(personalPickerPlaceholder(false, 'ready', 0), 'Connecte-toi pour tes stratégies');
    assert.equal(personalPickerPlaceholder(true, 'loading', 0), 'Chargement…');
    assert.equal(personalPickerPlaceholder(true, 'error', 0), 'Erreur de chargement', 'a failed list is not an empty one');
    assert.equal(personalPickerPlaceholder(true, 'ready', 0), 'Aucune stratégie pour le moment.');
    assert.equal(personalPickerPlaceholder(true, 'error', 2), '— Choisir —', 'a failed refresh keeps the list already shown');
  });
});

describe('backtest form: ?symbol= (docs/product.md §2.2)', () => {
  it('takes a catalogue pair in its own spelling, and nothing for a pair the catalogue does not know', () => {
    assert.equal(symbolFromQuery('EURUSD'), 'EURUSD');
    assert.equal(symbolFromQuery(' eurusd '), 'EURUSD');
    assert.equal(symbolFromQuery('xauusd'), 'XAUUSD');
    for (const unknown of [null, '', 'FOO', 'EUR USD!', '<script>']) assert.equal(symbolFromQuery(unknown), '', String(unknown));
    // An unknown pair leaves the form without one: the run button stays off instead of sending it.
    assert.equal(canSubmit({ ...form(), symbol: symbolFromQuery('FOO') }), false);
  });
});

describe('backtest form: what can be sent (docs/product.md §2.5)', () => {
  it('submit needs pair, timeframe and dates, or file and symbol for a custom CSV', () => {
    assert.equal(canSubmit(form()), true);
    assert.equal(canSubmit(form({ symbol: '' })), false);
    assert.equal(canSubmit(form({ end: '' })), false);
    assert.equal(canSubmit(form({ mode: 'custom' })), false);
    assert.equal(canSubmit(form({ mode: 'custom', file: { name: 'a.csv' }, customSymbol: 'eurusd' })), true);
  });

  it('shows the spec messages for a missing strategy, a missing CSV and bad dates', () => {
    const layoutOf = (f: BacktestFormState) => paramLayout(f, null, null);
    const noStrategy = form({ officialStrategy: '' });
    assert.equal(formError(noStrategy, layoutOf(noStrategy), context), 'Choisis une stratégie (officielle ou générée).');
    const custom = form({ mode: 'custom' });
    assert.equal(formError(custom, layoutOf(custom), context), 'Aucun fichier CSV sélectionné');
    const badFile = form({ mode: 'custom', file: { name: 'data.txt' } });
    assert.equal(formError(badFile, layoutOf(badFile), context), FORM_MESSAGES.badFile);
    const long = form({ end: '2025-02-15' });
    assert.equal(formError(long, layoutOf(long), context), 'Période trop longue (46 jours). Maximum : 31 jours.');
    assert.equal(formError(long, layoutOf(long), { ...context, isAdmin: true }), null);
    const poor = form();
    assert.equal(formError(poor, layoutOf(poor), { ...context, credits: 1 }), FORM_MESSAGES.notEnoughCredits);
  });

  it('needs a stop and a take-profit, except with the internal stop (SL 0)', () => {
    const check = (patch: Partial<BacktestFormState>) => {
      const f = form(patch);
      return formError(f, paramLayout(f, null, null), context);
    };
    assert.equal(check({ slPips: '' }), FORM_MESSAGES.slRequired);
    assert.equal(check({ tp1Pips: '' }), FORM_MESSAGES.tp1Required);
    assert.equal(check({ slPips: '0', tp1Pips: '', tp2Pips: '' }), null);
    assert.equal(check({ tp1Pips: '100', tp2Pips: '50' }), FORM_MESSAGES.tp2BelowTp1);
  });
});

describe('backtest form: parameters through core', () => {
  it('lays out an official strategy by level, with the family defaults', () => {
    const layout = paramLayout(form({ officialStrategy: 'englobante_entry_rsi' }), null, null);
    const names = [...layout.basic, ...layout.advanced].map((f) => f.definition.name);
    assert.ok(names.includes('rsi_threshold'));
    assert.equal(layout.basic.find((f) => f.definition.name === 'rsi_threshold')?.defaultValue, 50);
    assert.ok(layout.basic.every((f) => f.definition.level === 'basic'));
  });

  it('filters the fields to the server signature when it is a list of names', () => {
    assert.deepEqual(signatureFromAnswer({ params: ['min_wait_candles', 'max_wait_candles'] }), ['min_wait_candles', 'max_wait_candles']);
    assert.equal(signatureFromAnswer({ params: { min_wait_candles: 3 } }), null);
    const layout = paramLayout(form(), null, ['min_wait_candles', 'rsi_threshold']);
    assert.deepEqual([...layout.basic, ...layout.advanced].map((f) => f.definition.name).sort(), ['min_wait_candles', 'rsi_threshold']);
  });

  it('sends min_overlap_ratio as a fraction, or not at all for a touch entry', () => {
    const base = form();
    const layout = paramLayout(base, null, null);
    const touch = buildParams(base, layout);
    assert.ok(!('error' in touch) && touch.params.min_overlap_ratio === undefined);
    const deep = buildParams(form({ overlapTouch: false, overlapPercent: '25' }), layout);
    assert.ok(!('error' in deep));
    assert.equal((deep as { params: Record<string, unknown> }).params.min_overlap_ratio, 0.25);
    assert.deepEqual(buildParams(form({ overlapTouch: false, overlapPercent: '150' }), layout), { error: FORM_MESSAGES.overlapRange });
    assert.deepEqual(buildParams(form({ overlapTouch: false, overlapPercent: '' }), layout), { error: FORM_MESSAGES.overlapRange });
  });

  it('coerces typed values and reports a bad one in French', () => {
    const layout = paramLayout(form(), null, null);
    const built = buildParams(form({ params: { min_wait_candles: '5', rsi_threshold: '35,5' } }), layout);
    assert.ok(!('error' in built));
    assert.equal((built as { params: Record<string, unknown> }).params.min_wait_candles, 5);
    assert.equal((built as { params: Record<string, unknown> }).params.rsi_threshold, 35.5);
    const bad = buildParams(form({ params: { min_wait_candles: 'deux' } }), layout);
    assert.ok('error' in bad && /^Valeur invalide pour « .+ » : deux\.$/.test(bad.error));
  });

  it('uses a personal strategy meta.ui lists for its fields', () => {
    const [strategy] = parseUserStrategies({ items: [{ id: 'gpt_1', display_name: 'Ma strat', source: 'gpt', meta: { sl_mode: 'internal', ui: { basic: ['min_wait_candles'], advanced: ['max_touch'], hidden: ['time_key'] } } }] });
    assert.equal(strategy.slMode, 'internal');
    const layout = paramLayout(form({ source: 'gpt', userStrategyId: 'gpt_1' }), strategy, null);
    assert.deepEqual(layout.basic.map((f) => f.definition.name), ['min_wait_candles']);
    assert.deepEqual(layout.advanced.map((f) => f.definition.name), ['max_touch']);
  });
});

describe('backtest requests (docs/product.md §2.3)', () => {
  it('builds the official JSON body', () => {
    const body = officialRequest(form({ slPips: '50', tp1Pips: '50', tp2Pips: '100' }), { min_wait_candles: 3 });
    assert.deepEqual(body, {
      strategy: 'ob_pullback_pure_rsi',
      params: { min_wait_candles: 3 },
      sl_pips: 50,
      tp1_pips: 50,
      tp2_pips: 100,
      symbol: 'EURUSD',
      timeframe: 'M15',
      start_date: '2025-01-01',
      end_date: '2025-01-31',
      auto_analyze: true,
    });
  });

  it('builds the custom form fields with the symbol upper-cased and params_json', () => {
    const fields = customRequestFields(form({ mode: 'custom', customSymbol: ' btc-usd ', source: 'gpt', userStrategyId: 'imp_7' }), { max_touch: 2 });
    assert.equal(fields.symbol, 'BTC-USD');
    assert.equal(fields.strategy, 'imp_7');
    assert.equal(fields.params_json, '{"max_touch":2}');
    assert.deepEqual(Object.keys(fields).sort(), ['end_date', 'params_json', 'sl_pips', 'spread_from_data', 'start_date', 'strategy', 'symbol', 'timeframe', 'tp1_pips', 'tp2_pips']);
  });
});
