import type { Candles } from '../candles/types.js';
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

const DAY = 86_400_000;

/**
 * The one entry point of every consumer (DESIGN §1): parameters normalised, indicators
 * computed, setups detected, entries and exits simulated, statistics, and on request the
 * workbook. Candles before `from` warm up indicators and zones; candles after `to` are unused.
 */
export async function runBacktest(candles: Candles, request: BacktestRequest, options: BacktestOptions = {}): Promise<BacktestResult> {
  const now = options.now ?? (() => performance.now());
  const t0 = now();
  const prepared = prepareRun(candles, request);
  const { plan, params, exits, timeframe, stepMs } = prepared;
  const warnings = [...prepared.warnings];
  const { start, end } = periodWindow(candles.time, request.from, request.to);
  const columns = filterColumnNames(plan.filters, params);
  checkFilterColumns(candles, columns, params);
  const series = withIndicators(headCandles(candles, end), columnList(columns));
  const ltf = lowerTimeframe(request.ltf, stepMs, timeframe, request.symbol);
  if (start >= end) warnings.push(`no candle in the period: no trade (${candles.length} candles in the data)`);
  const engine = runEngine(series, { plan, params, exits, startIndex: start, ltf: ltf.ltf });
  const { trades, skippedNoRisk, ambiguity } = engine.simulation;
  if (skippedNoRisk > 0) warnings.push(`${skippedNoRisk} entries skipped: the internal stop left no positive risk (order price at or beyond the stop)`);
  if (ambiguity.count > 0) {
    const how = ltf.ltf ? `; ${ambiguity.resolved} resolved with ${ltf.name} candles, ${ambiguity.unresolved} left conservative` : '';
    warnings.push(`${ambiguity.count} trades had SL and a TP in the same candle, counted as SL${how}`);
  }
  const statistics = computeStatistics(trades);

  const from = request.from ?? (end > start ? candles.time[start] : candles.time[0] ?? 0);
  const to = request.to ?? (end > start ? candles.time[end - 1] : from);
  const folder = resultFolderName({ symbol: request.symbol, timeframe, strategy: plan.key, from, to, slPips: exits.slPips, slMode: exits.slMode });
  const workbookName = workbookFileName(folder);
  const config = configRows(request, { strategy: plan.key, label: plan.label, timeframe, from, to, params, exits, ltfName: ltf.name, warmup: start });
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

/** The result without the workbook bytes, ready for JSON.stringify. */
export function backtestResultJson(result: BacktestResult): Omit<BacktestResult, 'workbook'> {
  const { workbook: _bytes, ...json } = result;
  return json;
}
