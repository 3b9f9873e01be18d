import { STRATEGIES, findParam, paramDefaults, type StrategyDefinition } from '@bt/core/catalogue';
import { backtestSummary } from '@bt/core/stats';
import { workbookFileName } from '@bt/core/report';
import type { UserStrategy } from '../db/models.js';
import { signatureOf, uiOf, type StrategyShape } from '../strategies/contract.js';
import type { BacktestOutcome } from './service.js';
import { presentCosts } from './costs.js';
import { BACKTEST_MESSAGES } from './request.js';

export function presentOfficialStrategy(s: StrategyDefinition) {
  return {
    key: s.key,
    name: s.key,
    label: s.label,
    short: s.short,
    description: s.description,
    family: s.family,
    entry_mode: s.entryMode,
    filters: s.filters,
    params: s.params,
    entry_rules: s.entryRules,
    source: 'official',
  };
}

export function listStrategiesAnswer(personal: UserStrategy[] | null) {
  return {
    strategies: STRATEGIES.map(presentOfficialStrategy),
    count: STRATEGIES.length,
    ...(personal ? { user_strategies: personal.map((s) => ({ id: s.id, key: s.id, label: s.displayName, source: s.source, sl_mode: s.slMode })) } : {}),
  };
}

function definition(name: string) {
  const d = findParam(name);
  if (!d) return { name, type: 'custom', default: null, label: name, description: '', level: 'basic' };
  return { name, type: d.type, default: d.default ?? null, label: d.label, description: d.description, level: d.level, min: d.min ?? null, max: d.max ?? null, choices: d.choices ?? null };
}

/** GET /api/strategy_params/{strategy}: the signature (`params`, a list of names, spec 2 §5) and its details. */
export function officialParamsAnswer(s: StrategyDefinition) {
  return { strategy: s.key, source: 'official', params: [...s.params], defaults: paramDefaults(s.key), definitions: s.params.map(definition) };
}

export function userParamsAnswer(row: UserStrategy, shape: StrategyShape) {
  const names = signatureOf(shape);
  const defs = names.map((name) => {
    const base = definition(name);
    if (Object.hasOwn(shape.params, name) && base.type === 'custom') {
      const v = shape.params[name];
      return { ...base, type: typeof v === 'boolean' ? 'bool' : typeof v === 'string' ? 'string' : Number.isInteger(v) ? 'int' : 'float', default: v };
    }
    return Object.hasOwn(shape.params, name) ? { ...base, default: shape.params[name] } : base;
  });
  return { strategy: row.id, source: row.source, params: names, defaults: Object.fromEntries(defs.map((d) => [d.name, d.default])), definitions: defs, ui: uiOf(shape), entry_mode: shape.entryMode, filters: shape.filters, sl_mode: row.slMode };
}

/** The answer of a run (spec 2 §3 "Backtest result"), plus what the web app draws its charts from. */
export function presentOutcome(outcome: BacktestOutcome, timing: { total_ms: number }) {
  const { run, result } = outcome;
  const file = workbookFileName(run.folder);
  return {
    status: 'success',
    error: null,
    message: BACKTEST_MESSAGES.done,
    run_id: run.runId,
    folder: run.folder,
    xlsx_result: `${run.folder}/${file}`,
    xlsx_filename: file,
    download_url: `/api/download/${encodeURIComponent(file)}?folder=${encodeURIComponent(run.folder)}`,
    credits_remaining: outcome.balance,
    golden_hours: result.golden_hours,
    statistics: result.statistics,
    summary: backtestSummary(result.statistics),
    strategy: run.strategy,
    strategy_label: run.strategyLabel,
    user_strategy_id: run.userStrategyId,
    source: run.source,
    symbol: run.symbol,
    timeframe: run.timeframe,
    start_date: run.startDate,
    end_date: run.endDate,
    sl_mode: result.slMode,
    sl_pips: run.slPips,
    tp1_pips: run.tp1Pips,
    tp2_pips: run.tp2Pips,
    pip_size: result.pipSize,
    params: outcome.params,
    warnings: outcome.warnings,
    counts: result.counts,
    ambiguity: result.ambiguity,
    costs: presentCosts(result.costs),
    // The net R of the resolved trades in entry order, at TP1 and TP2: what the result view's Monte
    // Carlo draws from (in the browser, docs/web.md), without sending every trade.
    r_sequence: result.rSequence,
    engine_version: result.engineVersion,
    timing: { engine_ms: result.timing.engine_ms, report_ms: result.timing.report_ms, sandbox_ms: outcome.sandboxMs, total_ms: timing.total_ms },
  };
}
