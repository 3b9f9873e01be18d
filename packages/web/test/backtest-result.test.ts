import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../src/api/errors.js';
import { chartSeries, hasChartData } from '../src/features/results/chartData.js';
import { generationFailure, generationResult, importedStrategyId } from '../src/pages/backtest/personal.js';
import { backtestFailureMessage, parseBacktestAnswer, splitResultPath } from '../src/pages/backtest/result.js';

describe('backtest answers (docs/product.md §2.3, §2.8)', () => {
  it('reads folder and workbook from the last two segments of xlsx_result', () => {
    assert.deepEqual(splitResultPath('results/7/EURUSD_M15_ob_20250101-20250131_sl100/EURUSD_M15_ob_20250101-20250131_sl100.xlsx'), {
      folder: 'EURUSD_M15_ob_20250101-20250131_sl100',
      file: 'EURUSD_M15_ob_20250101-20250131_sl100.xlsx',
    });
    assert.deepEqual(splitResultPath('C:\\out\\F\\F.xlsx'), { folder: 'F', file: 'F.xlsx' });
    assert.equal(splitResultPath(''), null);
  });

  it('parses a success with credits and golden hours', () => {
    const parsed = parseBacktestAnswer(
      {
        xlsx_result: 'out/F/F.xlsx',
        credits_remaining: 4,
        golden_hours: { winrate_global: { TP1: 0.55, TP2: 0.3 }, golden_hours: [{ hour: 9, TP1: 0.8, TP2: 0.5, trades: 10, TP1_ci95: [0.49, 0.94] }] },
      },
      'official',
    );
    assert.ok(parsed.ok);
    if (!parsed.ok) return;
    assert.equal(parsed.outcome.creditsRemaining, 4);
    assert.deepEqual(parsed.outcome.winrateGlobal, { TP1: 0.55, TP2: 0.3 });
    assert.equal(parsed.outcome.goldenHours[0].hour, 9);
  });

  it('gives the spec messages for non-JSON answers, errors and defaults', () => {
    assert.deepEqual(parseBacktestAnswer({ nonJson: true, text: '<html>' }, 'official'), { ok: false, error: 'Erreur serveur (réponse non-JSON)' });
    assert.deepEqual(parseBacktestAnswer({ error: 'Pas de données pour cette période' }, 'official'), { ok: false, error: 'Pas de données pour cette période' });
    assert.deepEqual(parseBacktestAnswer({}, 'official'), { ok: false, error: 'Erreur backtest officiel' });
    assert.deepEqual(parseBacktestAnswer({}, 'custom'), { ok: false, error: 'Erreur backtest custom' });
    assert.equal(backtestFailureMessage(new HttpError(502, undefined, { nonJson: true, text: 'Bad gateway' }), 'official'), 'Erreur serveur (réponse non-JSON)');
    assert.equal(backtestFailureMessage(new HttpError(402, 'Crédits insuffisants', { detail: 'Crédits insuffisants' }), 'official'), 'Crédits insuffisants');
    assert.equal(backtestFailureMessage(new HttpError(400, undefined, {}), 'custom'), 'Erreur backtest custom');
  });
});

describe('AI generation and import answers (docs/product.md §2.8)', () => {
  it('reads generation outcomes and the 401 login prompt', () => {
    assert.deepEqual(generationResult({ success: true, strategy_id: 'gpt_12', comment: 'FVG + RSI' }), { kind: 'done', strategyId: 'gpt_12', comment: 'FVG + RSI', provider: null });
    assert.equal((generationResult({ success: true, strategy_id: 'us_1', provider: 'builtin' }) as { provider: unknown }).provider, 'builtin', 'the answer says who generated it');
    assert.deepEqual(generationResult({ success: false }), { kind: 'error', message: 'Stratégie impossible à générer. Reformule plus clairement la logique.' });
    assert.deepEqual(generationFailure(new HttpError(401, undefined, {})), { kind: 'login' });
    assert.deepEqual(generationFailure(new TypeError('fetch failed')), { kind: 'error', message: 'Erreur génération GPT' });
    assert.equal(importedStrategyId({ strategy: { id: 'imp_3' } }), 'imp_3');
    assert.equal(importedStrategyId({ ok: true }), null);
  });
});

describe('chart series', () => {
  it('turns core statistics into percent points with intervals and golden marks', () => {
    const group = (winrate: number | null, ci: [number, number] | null, resolved: number) => ({ resolved, tp1: { winrate, winrateCi95: ci, resolved } });
    const statistics = {
      byHour: [
        { hour: 10, ...group(0.5, [0.3, 0.7], 20) },
        { hour: 9, ...group(0.8, [0.49, 0.94], 10) },
        { hour: 11, ...group(null, null, 0) },
      ],
      sessions: [{ session: 'Asie', ...group(0.4, [0.2, 0.6], 15) }],
      byWeekday: [{ weekday: 1, label: 'Mar', ...group(0.6, [0.4, 0.8], 12) }, { weekday: 0, label: 'Lun', ...group(0.5, [0.3, 0.7], 12) }],
    };
    const series = chartSeries(statistics, [{ hour: 9, TP1: 0.8, TP2: 0.5 }]);
    assert.deepEqual(series.hours.map((p) => [p.label, p.winrate, p.golden]), [['09h', 80, true], ['10h', 50, false], ['11h', null, false]]);
    assert.equal(series.hours[0].low, 49);
    assert.deepEqual(series.weekdays.map((p) => p.label), ['Lun', 'Mar']);
    assert.equal(series.sessions[0].label, 'Asie');
    assert.ok(hasChartData(series));
  });

  it('falls back to the golden hours alone without statistics', () => {
    const series = chartSeries(null, [{ hour: 14, TP1: 0.7, TP2: null, trades: 8, TP1_ci95: [0.39, 0.9] }]);
    assert.deepEqual(series.hours.map((p) => [p.label, Math.round(p.winrate!), p.golden]), [['14h', 70, true]]);
    assert.equal(hasChartData(chartSeries(null, [])), false);
  });
});
