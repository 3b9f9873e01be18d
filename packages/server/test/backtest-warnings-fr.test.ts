import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BACKTEST_WARNING_CODES, backtestWarningText, type BacktestWarning, type BacktestWarningCode } from '@bt/core/backtest';
import { FRENCH_WARNINGS, frenchWarning, resultWarnings } from '../src/backtests/warning-messages.js';
import { useTestApp } from './support/app.js';
import { TEST_DIALECT } from './support/db.js';
import { funded, runBacktest } from './support/work.js';

/** One warning of each code core can emit: a code core adds without a sample here fails below. */
const SAMPLES: { [C in BacktestWarningCode]: Extract<BacktestWarning, { code: C }>[] } = {
  param_ignored: [
    { code: 'param_ignored', given: 'nonsense', strategy: 'fvg_pullback_multi', reads: ['min_wait_candles', 'rsi_key'], catalogue: false, known: false, suggestion: null },
    { code: 'param_ignored', given: 'rsi_periode', strategy: null, reads: ['rsi_period'], catalogue: true, known: false, suggestion: 'rsi_period' },
    { code: 'param_ignored', given: 'ema_fast', strategy: 'englobante_entry', reads: ['min_wait_candles'], catalogue: false, known: true, suggestion: null },
  ],
  param_given_twice: [{ code: 'param_given_twice', param: 'min_wait_candles', first: 'min_wait', firstValue: '2', second: 'min_wait_candles', secondValue: '3', kept: 'min_wait_candles' }],
  ema_fast_slower: [{ code: 'ema_fast_slower', fast: 'EMA_200', slow: 'EMA_50' }],
  no_candle_in_period: [{ code: 'no_candle_in_period', candles: 1200 }],
  spread_column_missing: [{ code: 'spread_column_missing' }],
  spread_point_mismatch: [{ code: 'spread_point_mismatch', pointSize: 0.00001, quoted: 0.001 }],
  entries_skipped_no_risk: [{ code: 'entries_skipped_no_risk', count: 1 }, { code: 'entries_skipped_no_risk', count: 4 }],
  sl_tp_same_candle: [
    { code: 'sl_tp_same_candle', count: 3, lowerTimeframe: null, resolved: 0, unresolved: 3 },
    { code: 'sl_tp_same_candle', count: 3, lowerTimeframe: 'M1', resolved: 2, unresolved: 1 },
  ],
};

/** Words of core's English sentences that no French one should carry. */
const ENGLISH = /\b(the|and|candles?|skipped|ignored|given|had|counted|unknown|expected|reads|entries|left|resolved|slower|buys|above)\b/i;

describe('backtest warnings in French', () => {
  it('every warning code core can emit has a French sentence, none of them core\'s English', () => {
    assert.ok(BACKTEST_WARNING_CODES.length >= 8);
    assert.deepEqual(Object.keys(SAMPLES).sort(), [...BACKTEST_WARNING_CODES].sort(), 'a sample of each code core lists');
    for (const code of BACKTEST_WARNING_CODES) {
      assert.equal(typeof FRENCH_WARNINGS[code], 'function', `no French for ${code}`);
      for (const sample of SAMPLES[code] as BacktestWarning[]) {
        const french = frenchWarning(sample);
        assert.ok(french.length > 10 && /[.?]$/.test(french), `${code}: ${french}`);
        assert.notEqual(french, backtestWarningText(sample));
        assert.doesNotMatch(french, ENGLISH, `${code}: ${french}`);
      }
    }
    assert.equal(frenchWarning(SAMPLES.sl_tp_same_candle[1]), '3 trades ont touché le SL et un TP dans la même bougie, comptés comme SL ; 2 départagés avec les bougies M1, 1 laissé en SL par prudence.');
    assert.equal(frenchWarning(SAMPLES.entries_skipped_no_risk[0]), "1 entrée ignorée : le stop interne ne laissait aucun risque positif (prix d'ordre au niveau du stop ou au-delà).");
    assert.equal(frenchWarning(SAMPLES.spread_point_mismatch[0]), 'spread_from_data : la colonne Spread est lue en points de 0,00001 (un dixième de pip), mais les prix sont cotés à 0,001 ; si le point de ton courtier est 0,001, indique spread_point_size.');
  });

  it("a result from a worker without notices (an older bt-worker) keeps core's sentences", () => {
    assert.deepEqual(resultWarnings({ warnings: ['3 trades had SL and a TP in the same candle, counted as SL'] }), ['3 trades had SL and a TP in the same candle, counted as SL']);
  });
});

const t = useTestApp({ library: true });

describe(`POST /api/run_backtest answers its warnings in French (${TEST_DIALECT})`, () => {
  it('an unknown parameter and trades with SL and TP in one candle are said in French', async () => {
    const user = await funded(t, 2);
    const res = await runBacktest(t, user.key, { params: { nonsense: 1 }, sl_pips: 1, tp1_pips: 1 });
    assert.equal(res.status, 200, res.text);
    const warnings: string[] = res.body.warnings;
    assert.ok(warnings.some((w) => w.startsWith('Paramètre inconnu « nonsense » ignoré (la stratégie fvg_pullback_multi lit : ')), warnings.join('\n'));
    assert.ok(res.body.ambiguity.count > 0, 'a 1-pip stop and target meet in one candle');
    assert.ok(warnings.includes(`${res.body.ambiguity.count} trades ont touché le SL et un TP dans la même bougie, comptés comme SL.`), warnings.join('\n'));
    for (const w of warnings) assert.doesNotMatch(w, ENGLISH, w);
  });
});
