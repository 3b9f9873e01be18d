import type { Candles } from '../candles/types.js';
import { inferPointSize, runCosts } from '../costs/quotes.js';
import { hasCosts } from '../costs/settings.js';
import type { CostSettings } from '../costs/types.js';
import { priceRounding } from '../simulate/levels.js';
import { withIndicators } from '../indicators/columns.js';
import { resultFolderName, workbookFileName } from '../report/folder.js';
import type { ConfigEntry } from '../report/sheets.js';
import { buildReport } from '../report/workbook.js';
import { computeStatistics } from '../stats/compute.js';
import { SESSION_BUCKETS, sessionHoursLabel } from '../stats/buckets.js';
import { checkFilterColumns, columnList, filterColumnNames } from '../strategies/params.js';
import { headCandles, runEngine } from './engine.js';
import { lowerTimeframe, periodWindow, prepareRun } from './prepare.js';
import type { BacktestOptions, BacktestRequest, BacktestResult } from './types.js';
import { ENGINE_VERSION } from './version.js';
import { backtestWarningText, type BacktestWarning } from './warnings.js';

const DAY = 86_400_000;

/**
 * The one entry point of every consumer (docs/architecture.md §1): parameters normalised, indicators
 * computed, setups detected, entries and exits simulated, statistics, and on request the
 * workbook. Candles before `from` warm up indicators and zones; candles after `to` are unused.
 */
export async function runBacktest(candles: Candles, request: BacktestRequest, options: BacktestOptions = {}): Promise<BacktestResult> {
  const now = options.now ?? (() => performance.now());
  const t0 = now();
  const prepared = prepareRun(candles, request);
  const { plan, params, exits, timeframe, stepMs } = prepared;
  const notices: BacktestWarning[] = [...prepared.notices];
  const { start, end } = periodWindow(candles.time, request.from, request.to);
  const columns = filterColumnNames(plan.filters, params);
  checkFilterColumns(candles, columns, params);
  const series = withIndicators(headCandles(candles, end), columnList(columns));
  const ltf = lowerTimeframe(request.ltf, stepMs, timeframe, request.symbol);
  if (start >= end) notices.push({ code: 'no_candle_in_period', candles: candles.length });
  const scale = priceRounding(exits.pipSize);
  const costs = hasCosts(prepared.costs) ? runCosts(series, prepared.costs, exits.pipSize, scale) : undefined;
  if (costs && ltf.ltf && costs.spread) ltf.ltf = { ...ltf.ltf, ask: runCosts(request.ltf!, prepared.costs, exits.pipSize, scale).ask };
  if (prepared.costs.spreadFromData && costs) {
    if (costs.dataSpreadCandles === 0) notices.push({ code: 'spread_column_missing' });
    else if (prepared.costs.spreadPointSize === null) {
      const quoted = inferPointSize(series);
      if (quoted !== costs.pointSize) notices.push({ code: 'spread_point_mismatch', pointSize: costs.pointSize, quoted });
    }
  }
  const engine = runEngine(series, { plan, params, exits, startIndex: start, ltf: ltf.ltf, costs });
  const { trades, skippedNoRisk, ambiguity } = engine.simulation;
  if (skippedNoRisk > 0) notices.push({ code: 'entries_skipped_no_risk', count: skippedNoRisk });
  if (ambiguity.count > 0) {
    notices.push({ code: 'sl_tp_same_candle', count: ambiguity.count, lowerTimeframe: ltf.ltf ? ltf.name : null, resolved: ambiguity.resolved, unresolved: ambiguity.unresolved });
  }
  const warnings = notices.map(backtestWarningText);
  const statistics = computeStatistics(trades);

  const from = request.from ?? (end > start ? candles.time[start] : candles.time[0] ?? 0);
  const to = request.to ?? (end > start ? candles.time[end - 1] : from);
  const folder = resultFolderName({ symbol: request.symbol, timeframe, strategy: plan.key, from, to, slPips: exits.slPips, slMode: exits.slMode });
  const workbookName = workbookFileName(folder);
  const costSummary = { ...prepared.costs, spreadPointSizeUsed: costs?.pointSize ?? null, spreadDataCandles: costs?.dataSpreadCandles ?? 0 };
  const config = configRows(request, { strategy: plan.key, label: plan.label, timeframe, from, to, params, exits, ltfName: ltf.name, warmup: start, costs: costSummary, costsOn: costs !== undefined });
  const t1 = now();

  let workbook: Uint8Array | undefined;
  if (options.workbook) workbook = await buildReport({ config, statistics, trades, pipSize: exits.pipSize, createdAt: options.createdAt });
  const t2 = now();

  return {
    engineVersion: ENGINE_VERSION,
    strategy: plan.key,
    strategyLabel: plan.label,
    symbol: request.symbol.trim().toUpperCase(),
    timeframe,
    pipSize: exits.pipSize,
    slMode: exits.slMode,
    from,
    to,
    params,
    xlsx_result: `${folder}/${workbookName}`,
    folder,
    workbookName,
    golden_hours: statistics.goldenHours,
    statistics,
    trades,
    ambiguity: { ...ambiguity, lowerTimeframe: ltf.name },
    costs: costSummary,
    counts: {
      candles: series.length,
      warmupCandles: Math.min(start, series.length),
      setups: engine.setups.count,
      entries: engine.entries.count,
      trades: trades.length,
      skippedNoRisk,
    },
    config,
    warnings,
    notices,
    timing: { engine_ms: round3(t1 - t0), report_ms: round3(t2 - t1) },
    ...(workbook ? { workbook } : {}),
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const isoDay = (ms: number) => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);

interface ConfigContext {
  strategy: string;
  label: string;
  timeframe: string;
  from: number;
  to: number;
  params: Record<string, unknown>;
  exits: { slMode: string; slPips?: number; tp1Pips?: number; tp2Pips?: number; pipSize: number };
  ltfName: string | null;
  warmup: number;
  costs: CostSettings & { spreadPointSizeUsed: number | null; spreadDataCandles: number };
  costsOn: boolean;
}

/** Config sheet rows (docs/report.md metric names): every input, the rules, the run's identity. */
function configRows(request: BacktestRequest, c: ConfigContext): ConfigEntry[] {
  const value = (v: unknown): ConfigEntry['value'] => (v === undefined ? null : typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string' || v === null ? v : JSON.stringify(v));
  const internal = c.exits.slMode === 'internal';
  const rows: ConfigEntry[] = [
    { metric: 'strategy', value: c.strategy },
    { metric: 'strategy_label', value: c.label },
    { metric: 'strategy_source', value: typeof request.strategy === 'string' ? 'official' : 'signal function' },
    { metric: 'symbol', value: request.symbol.trim().toUpperCase() },
    { metric: 'timeframe', value: c.timeframe },
    { metric: 'start_date', value: isoDay(c.from) },
    { metric: 'end_date', value: isoDay(c.to) },
    { metric: 'sl_mode', value: c.exits.slMode },
    { metric: 'sl_pips', value: internal ? null : value(c.exits.slPips) },
    { metric: 'tp1_pips', value: c.exits.tp1Pips ?? (internal ? '1R' : null) },
    { metric: 'tp2_pips', value: c.exits.tp2Pips ?? (internal ? '2R' : c.exits.tp1Pips !== undefined ? 2 * c.exits.tp1Pips : null) },
    { metric: 'pip_size', value: c.exits.pipSize },
  ];
  rows.push(...costRows(c.costs, c.costsOn));
  for (const [name, v] of Object.entries(c.params)) rows.push({ metric: name, value: value(v) });
  rows.push(
    { metric: 'warmup_candles', value: c.warmup },
    { metric: 'lower_timeframe', value: c.ltfName },
    { metric: 'same_candle_rule', value: 'SL et TP dans la même bougie : compté SL (conservateur)' },
    { metric: 'entry_candle_rule', value: "Ordre au repos : sur sa bougie de remplissage, seul le SL compte" },
    { metric: 'sessions_utc', value: SESSION_BUCKETS.map((b) => `${b.name} ${sessionHoursLabel(b)}`).join(', ') },
    { metric: 'engine_version', value: ENGINE_VERSION },
    { metric: 'run_id', value: value(request.run?.runId) },
    { metric: 'user_id', value: value(request.run?.userId) },
    { metric: 'run_seq', value: value(request.run?.runSeq) },
  );
  return rows;
}

/** Config rows of the trading costs (docs/report.md): every cost, zero included, and the price rule when any applies. */
function costRows(c: CostSettings & { spreadPointSizeUsed: number | null; spreadDataCandles: number }, on: boolean): ConfigEntry[] {
  const rows: ConfigEntry[] = [
    { metric: 'spread_pips', value: c.spreadPips },
    { metric: 'spread_by_hour_pips', value: c.spreadByHour ? c.spreadByHour.join(' ') : null },
    { metric: 'spread_from_data', value: c.spreadFromData },
  ];
  if (c.spreadFromData) {
    rows.push({ metric: 'spread_point_size', value: c.spreadPointSizeUsed }, { metric: 'spread_data_candles', value: c.spreadDataCandles });
  }
  rows.push({ metric: 'commission_pips', value: c.commissionPips });
  if (c.commissionPerLot > 0) rows.push({ metric: 'commission_per_lot', value: c.commissionPerLot }, { metric: 'account_currency', value: c.accountCurrency });
  rows.push({ metric: 'slippage_pips', value: c.slippagePips });
  if (on) rows.push({ metric: 'price_rule', value: 'Bougies au bid ; achat au ask (bid + spread), SL/TP d’un achat jugés au bid ; vente au bid, SL/TP d’une vente jugés au ask' });
  return rows;
}

/** The result without the workbook bytes, ready for JSON.stringify. */
export function backtestResultJson(result: BacktestResult): Omit<BacktestResult, 'workbook' | 'notices'> {
  // The CLI's JSON keeps its fields (docs/cli.md): the notices are `warnings` again, as data, for
  // consumers that translate them (the server).
  const { workbook: _bytes, notices: _notices, ...json } = result;
  return json;
}
