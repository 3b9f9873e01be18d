// The readable summary of one run: what ran, the Global sheet, the sessions, the golden hours.
import type { BacktestResult } from '@bt/core/backtest';
import { pipSize } from '@bt/core/catalogue';
import { formatPercentCell, LABELS } from '@bt/core/format';
import { globalSheet, hoursSheet, sessionsSheet, weekdaysSheet, type SheetSpec } from '@bt/core/report';
import { UsageError } from './errors.js';
import { count, ms, print, renderTable, styles } from './output.js';
import { sheetText } from './sheet-text.js';

/**
 * The catalogue's pip size, or the flag's (checked by core's pipSize: a decimal number in its
 * range); an unknown symbol without --pip-size is a usage error.
 */
export function checkPipSize(symbol: string, override: string | undefined): number {
  try {
    return pipSize(symbol, override);
  } catch (error) {
    const message = (error as Error).message.replace('give an explicit pip size', 'give --pip-size').replace(/^invalid pip size:/, 'invalid --pip-size:');
    throw new UsageError(message);
  }
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Columns of the per-bucket tables shown in a terminal (the workbook has them all). */
export const BUCKET_COLUMNS = [
  LABELS.trades, LABELS.resolved, LABELS.tp1Wins, LABELS.sl, LABELS.open,
  LABELS.winrateTp1, LABELS.ciLowTp1, LABELS.ciHighTp1, LABELS.winrateTp2, LABELS.expectancyTp1,
];

/** Golden hours as rows: hour, resolved trades, TP1 win rate with its interval, TP2 win rate. */
export function goldenHourRows(result: Pick<BacktestResult, 'golden_hours'>): { headers: string[]; rows: string[][] } {
  const pct = (x: number | null | undefined) => (x === null || x === undefined ? '' : formatPercentCell(x));
  return {
    headers: [LABELS.hour, LABELS.resolved, LABELS.winrateTp1, LABELS.ciLowTp1, LABELS.ciHighTp1, LABELS.winrateTp2],
    rows: result.golden_hours.golden_hours.map((h) => [`${String(h.hour).padStart(2, '0')}h`, String(h.trades), pct(h.TP1), pct(h.TP1_ci95[0]), pct(h.TP1_ci95[1]), pct(h.TP2)]),
  };
}

/** Why a run has no golden hour (docs/report.md "Golden hours"). */
export function noGoldenHour(r: Pick<BacktestResult, 'golden_hours'>): string {
  const g = r.golden_hours;
  if (g.eligible_hours === 0) return `none: no hour has ${g.min_trades} resolved trades or more`;
  return `none: no hour beats the global TP1 win rate (${formatPercentCell(g.winrate_global.TP1 ?? 0)})`;
}

/** The workbook's summary sheets of a result, built in memory by core's sheet builders (no file, no Trades sheet). */
export function resultSheets(r: Pick<BacktestResult, 'statistics'>): Record<'Global' | 'Sessions' | 'Par_Heure' | 'Jour_Semaine', SheetSpec> {
  return { Global: globalSheet(r.statistics), Sessions: sessionsSheet(r.statistics), Par_Heure: hoursSheet(r.statistics), Jour_Semaine: weekdaysSheet(r.statistics) };
}

export function runTitle(r: BacktestResult): string {
  const exits = r.slMode === 'internal' ? 'internal stop (SL at the zone, TP1 1R, TP2 2R unless given)' : `SL ${r.config.find((c) => c.metric === 'sl_pips')?.value} / TP1 ${r.config.find((c) => c.metric === 'tp1_pips')?.value} / TP2 ${r.config.find((c) => c.metric === 'tp2_pips')?.value} pips`;
  return `${r.symbol} ${r.timeframe} · ${r.strategy} · ${day(r.from)} → ${day(r.to)} · ${exits}`;
}

/** What the run paid (docs/engine.md §13), or null without costs. */
export function costsLine(r: Pick<BacktestResult, 'costs'>): string | null {
  const c = r.costs;
  const parts: string[] = [];
  if (c.spreadFromData) parts.push(`spread from the data's Spread column on ${count(c.spreadDataCandles)} candles (points of ${c.spreadPointSizeUsed})`);
  if (c.spreadByHour) parts.push(`spread by UTC hour ${c.spreadByHour.join(' ')} pips`);
  else if (c.spreadPips > 0) parts.push(`spread ${c.spreadPips} pips`);
  if (c.commissionPips > 0) parts.push(`commission ${c.commissionPips} pips`);
  if (c.commissionPerLot > 0) parts.push(`commission ${c.commissionPerLot} ${c.accountCurrency} per lot`);
  if (c.slippagePips > 0) parts.push(`slippage ${c.slippagePips} pips`);
  return parts.length ? `Costs: ${parts.join(' · ')} (buys at the ask, sells judged on the ask)` : null;
}

export function printSummary(r: BacktestResult, meta: { loadMs: number; candles: number; path: string }): void {
  const s = styles();
  print(s.bold(runTitle(r)));
  print(s.dim(`${r.strategyLabel} · ${meta.path}`));
  print(
    s.dim(
      `${count(meta.candles)} candles (${count(r.counts.warmupCandles)} warm-up) · ${count(r.counts.setups)} setups · ${count(r.counts.trades)} trades · ` +
        `load ${ms(meta.loadMs)} · engine ${ms(r.timing.engine_ms)}${r.timing.report_ms > 0.05 ? ` · workbook ${ms(r.timing.report_ms)}` : ''}`,
    ),
  );
  const costs = costsLine(r);
  if (costs) print(s.dim(costs));
  const sheets = resultSheets(r);
  const global = sheetText(sheets.Global);
  print(`\n${s.bold('Global')}`);
  print(renderTable(global.headers, global.rows, { header: s.dim, indent: '  ', align: global.headers.map((_, i) => (i === 0 ? 'left' : 'right')) }));
  const sessions = sheetText(sheets.Sessions, [LABELS.session, LABELS.sessionHours, ...BUCKET_COLUMNS]);
  print(`\n${s.bold('Sessions (UTC)')}`);
  print(renderTable(sessions.headers, sessions.rows, { header: s.dim, indent: '  ' }));
  const golden = goldenHourRows(r);
  print(`\n${s.bold(`Golden hours (UTC, at least ${r.golden_hours.min_trades} resolved trades, above the global TP1 win rate, best Wilson lower bound first)`)}`);
  if (golden.rows.length === 0) print(`  ${noGoldenHour(r)}`);
  else print(renderTable(golden.headers, golden.rows, { header: s.dim, indent: '  ' }));
  if (r.warnings.length > 0) {
    print('');
    for (const w of r.warnings) print(s.yellow(`warning: ${w}`));
  }
}
