/**
 * The answer of GET /api/user/backtests/chart (docs/api.md) read into what the result view draws:
 * its title, the candles, the trades in entry order, the equity curve in R with its drawdown, and
 * the markers of the price chart. Plain logic, tested without a DOM.
 */
import { formatPeriodFr, dayToMs } from '@bt/core/format';
import { timeframeStepMs, parseTimeframe } from '@bt/core/catalogue';

export interface ChartTrade {
  id: number;
  side: 'buy' | 'sell';
  entryTime: number;
  entryPrice: number;
  sl: number | null;
  tp1: number | null;
  tp2: number | null;
  outcome: 'tp2' | 'tp1' | 'sl' | 'open';
  tp1Time: number | null;
  tp2Time: number | null;
  slTime: number | null;
  rTp1: number | null;
}

export interface ChartCandles {
  time: number[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
}

export interface ResultChart {
  folder: string;
  symbol: string;
  timeframe: string;
  chartTimeframe: string | null;
  strategyLabel: string;
  startDate: string;
  endDate: string;
  slMode: string | null;
  slPips: number | null;
  pipSize: number | null;
  candles: ChartCandles | null;
  candlesNote: string | null;
  trades: ChartTrade[];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const numbers = (v: unknown): number[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (v as number[]) : null);

function candlesOf(value: unknown): ChartCandles | null {
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  const cols = ['time', 'open', 'high', 'low', 'close'].map((k) => numbers(r[k]));
  if (cols.some((c) => c === null) || new Set(cols.map((c) => c!.length)).size !== 1) return null;
  const [time, open, high, low, close] = cols as number[][];
  return { time, open, high, low, close };
}

const OUTCOMES = new Set(['tp2', 'tp1', 'sl', 'open']);

export function parseResultChart(answer: unknown): ResultChart | null {
  if (!answer || typeof answer !== 'object') return null;
  const r = answer as Record<string, unknown>;
  if (!str(r.folder) || !Array.isArray(r.trades)) return null;
  const trades: ChartTrade[] = [];
  for (const t of r.trades) {
    if (!t || typeof t !== 'object') continue;
    const x = t as Record<string, unknown>;
    const entryTime = num(x.entry_time);
    const entryPrice = num(x.entry_price);
    if (entryTime === null || entryPrice === null) continue;
    trades.push({
      id: num(x.id) ?? trades.length + 1,
      side: x.side === 'sell' ? 'sell' : 'buy',
      entryTime,
      entryPrice,
      sl: num(x.sl),
      tp1: num(x.tp1),
      tp2: num(x.tp2),
      outcome: OUTCOMES.has(str(x.outcome)) ? (x.outcome as ChartTrade['outcome']) : 'open',
      tp1Time: num(x.tp1_time),
      tp2Time: num(x.tp2_time),
      slTime: num(x.sl_time),
      rTp1: num(x.r_tp1),
    });
  }
  trades.sort((a, b) => a.entryTime - b.entryTime || a.id - b.id);
  return {
    folder: str(r.folder),
    symbol: str(r.symbol),
    timeframe: str(r.timeframe),
    chartTimeframe: str(r.chart_timeframe) || null,
    strategyLabel: str(r.strategy_label) || str(r.strategy),
    startDate: str(r.start_date),
    endDate: str(r.end_date),
    slMode: str(r.sl_mode) || null,
    slPips: num(r.sl_pips),
    pipSize: num(r.pip_size),
    candles: candlesOf(r.candles),
    candlesNote: str(r.candles_note) || null,
    trades,
  };
}

export interface TitleParts {
  symbol: string;
  timeframe: string;
  strategyLabel: string;
  startDate: string;
  endDate: string;
  slMode: string | null;
  slPips: number | null;
}

/** `EURUSD · M15 · FVG pullback multi · 1–31 mars 2023 · SL 20` (`SL interne` for the zone's stop). */
export function resultTitle(p: TitleParts): string {
  const from = dayToMs(p.startDate);
  const to = dayToMs(p.endDate);
  const period = from !== null && to !== null ? formatPeriodFr(from, to) : `${p.startDate} → ${p.endDate}`;
  const internal = p.slMode === 'internal' || p.slPips === 0;
  const stop = internal ? 'SL interne' : p.slPips === null ? null : `SL ${String(p.slPips).replace('.', ',')}`;
  return [p.symbol, p.timeframe, p.strategyLabel, period, stop].filter(Boolean).join(' · ');
}

export interface EquityPoint {
  /** 0 is the start (before the first trade), then one point per resolved trade in entry order. */
  index: number;
  time: number;
  tradeId: number | null;
  equity: number;
  drawdown: number;
}

/**
 * Cumulative R at TP1 in entry order, from 0, one point per trade with a TP1 verdict (open trades
 * count nowhere, as in the statistics), and the drawdown under its running peak (≤ 0). The last
 * point is the run's Total TP1 (R).
 */
export function equityCurve(trades: readonly ChartTrade[]): EquityPoint[] {
  const points: EquityPoint[] = [{ index: 0, time: trades[0]?.entryTime ?? 0, tradeId: null, equity: 0, drawdown: 0 }];
  let equity = 0;
  let peak = 0;
  for (const t of trades) {
    if (t.outcome === 'open' || t.rTp1 === null) continue;
    equity += t.rTp1;
    peak = Math.max(peak, equity);
    points.push({ index: points.length, time: t.entryTime, tradeId: t.id, equity, drawdown: equity - peak });
  }
  return points;
}

/** The chart bar a time falls in: the last candle opening at or before it (binary search). */
export function barTime(times: readonly number[], time: number): number | null {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0 || time < times[0]) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= time) lo = mid;
    else hi = mid - 1;
  }
  return times[lo];
}

export interface TradeMarker {
  id: string;
  time: number;
  kind: 'entry' | 'exit';
  side: 'buy' | 'sell';
  outcome: ChartTrade['outcome'];
  tradeId: number;
  text: string;
}

export const OUTCOME_TEXT: Record<ChartTrade['outcome'], string> = { tp2: 'TP2', tp1: 'TP1', sl: 'SL', open: 'Ouvert' };

/** When the trade was decided: TP2, else TP1 (then the stop or the end), else the stop; null while open. */
export function exitTime(t: ChartTrade): number | null {
  if (t.outcome === 'tp2') return t.tp2Time;
  if (t.outcome === 'tp1') return t.tp1Time;
  if (t.outcome === 'sl') return t.slTime;
  return null;
}

/**
 * One entry marker per trade (`#12`, under the bar for a buy, over it for a sell) and one exit
 * marker per decided trade (its outcome), placed on the chart's bars, in time order as the
 * charting library wants them.
 */
export function tradeMarkers(trades: readonly ChartTrade[], times: readonly number[]): TradeMarker[] {
  const markers: TradeMarker[] = [];
  for (const t of trades) {
    const entry = barTime(times, t.entryTime);
    if (entry !== null) markers.push({ id: `entry-${t.id}`, time: entry, kind: 'entry', side: t.side, outcome: t.outcome, tradeId: t.id, text: `#${t.id}` });
    const exit = exitTime(t);
    const exitBar = exit === null ? null : barTime(times, exit);
    if (exitBar !== null) markers.push({ id: `exit-${t.id}`, time: exitBar, kind: 'exit', side: t.side, outcome: t.outcome, tradeId: t.id, text: OUTCOME_TEXT[t.outcome] });
  }
  return markers.sort((a, b) => a.time - b.time || (a.kind === b.kind ? a.tradeId - b.tradeId : a.kind === 'exit' ? -1 : 1));
}

/** The bars to show around a trade: from a few bars before its entry to a few after its exit. */
export function tradeWindow(t: ChartTrade, timeframe: string | null, margin = 30): { from: number; to: number } {
  let step = 3_600_000;
  try {
    if (timeframe) step = timeframeStepMs(parseTimeframe(timeframe));
  } catch {
    // an unknown timeframe keeps the hour
  }
  const end = exitTime(t) ?? t.entryTime;
  return { from: t.entryTime - margin * step, to: end + margin * step };
}
