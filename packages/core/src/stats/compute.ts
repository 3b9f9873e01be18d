import type { TargetResult, Trade } from '../simulate/types.js';
import { TargetAccumulator } from './accumulator.js';
import { SESSION_BUCKETS, WEEKDAY_LABELS, sessionHoursLabel, sessionIndexForHour } from './buckets.js';
import { rankGoldenHours } from './golden.js';
import type {
  AmbiguityStatistics,
  BacktestStatistics,
  GlobalStatistics,
  GroupStatistics,
  StatisticsOptions,
  TargetFigures,
} from './types.js';

// Group layout of the accumulator: all trades, then the sessions, hours and weekdays.
const GLOBAL = 0;
const SESSION0 = 1;
const HOUR0 = SESSION0 + SESSION_BUCKETS.length;
const WEEKDAY0 = HOUR0 + 24;
const GROUPS = WEEKDAY0 + 7;

const RESULTS: ReadonlySet<string> = new Set(['win', 'loss', 'open']);

function checkTrade(trade: Trade, position: number): void {
  const where = `trade ${trade?.id ?? `#${position}`}`;
  if (!Number.isInteger(trade.hour) || trade.hour < 0 || trade.hour > 23) throw new Error(`invalid hour: ${trade.hour} (${where})`);
  if (!Number.isInteger(trade.weekday) || trade.weekday < 0 || trade.weekday > 6) throw new Error(`invalid weekday: ${trade.weekday} (${where})`);
  if (!RESULTS.has(trade.tp1Result)) throw new Error(`invalid tp1Result: ${trade.tp1Result} (${where})`);
  if (!RESULTS.has(trade.tp2Result)) throw new Error(`invalid tp2Result: ${trade.tp2Result} (${where})`);
  if (!Number.isFinite(trade.rTp1) || !Number.isFinite(trade.rTp2)) throw new Error(`invalid R: ${trade.rTp1}/${trade.rTp2} (${where})`);
  const session = SESSION_BUCKETS[sessionIndexForHour(trade.hour)].name;
  // The Trades and Sessions sheets must agree, so a record whose session disagrees with its hour is refused.
  if (trade.session !== session) throw new Error(`invalid session: ${trade.session} (${where}: hour ${trade.hour} is ${session})`);
}

/** Trade positions in entry order (entry time, then id); the identity when already sorted. */
function entryOrder(trades: readonly Trade[]): Int32Array {
  const order = new Int32Array(trades.length);
  let sorted = true;
  for (let i = 0; i < trades.length; i++) {
    order[i] = i;
    if (i > 0) {
      const a = trades[i - 1];
      const b = trades[i];
      if (a.entryTime > b.entryTime || (a.entryTime === b.entryTime && a.id > b.id)) sorted = false;
    }
  }
  if (!sorted) order.sort((i, j) => trades[i].entryTime - trades[j].entryTime || trades[i].id - trades[j].id);
  return order;
}

/**
 * R of a trade at one target under a verdict that may differ from the engine's own. A verdict
 * flipped by lower-timeframe resolution takes the bracket's planned figures: +reward/risk
 * measured from the order price for a win, -1 for a loss, 0 for open, less the trade's costs.
 */
function rForVerdict(trade: Trade, verdict: TargetResult, engineVerdict: TargetResult, engineR: number, target: number): number {
  if (verdict === engineVerdict) return engineR;
  if (verdict === 'open') return 0;
  // Costs in R, as the engine charges them (docs/engine.md §13); 0 without costs.
  const costR = trade.costPips > 0 && trade.riskPips > 0 ? trade.costPips / trade.riskPips : 0;
  const stopR = trade.stopCostPips > 0 && trade.riskPips > 0 ? trade.stopCostPips / trade.riskPips : 0;
  if (verdict === 'loss') return costR + stopR === 0 ? -1 : Math.round((-1 - costR - stopR) * 1e9) / 1e9;
  const risk = Math.abs(trade.orderPrice - trade.sl);
  if (!(risk > 0)) return 0;
  // Rounded so that price-unit noise (0.0020 / 0.0010 = 2.0000000000002) does not leak into R sums.
  return Math.round((Math.abs((target === 0 ? trade.tp1 : trade.tp2) - trade.orderPrice) / risk - costR) * 1e9) / 1e9;
}

function group(acc: TargetAccumulator, g: number, trades: number, ambiguous: number): GroupStatistics {
  const tp1 = acc.figures(g, 0);
  const tp2 = acc.figures(g, 1);
  return {
    trades,
    resolved: tp1.resolved,
    tp1Wins: tp1.wins,
    tp2Wins: tp2.wins,
    sl: tp1.losses,
    open: tp1.open,
    ambiguous,
    slRate: tp1.resolved > 0 ? tp1.losses / tp1.resolved : null,
    tp1,
    tp2,
  };
}

function checkOptions(options: StatisticsOptions): { minTrades: number; minShare: number } {
  const minTrades = options.goldenMinTrades ?? 3;
  const minShare = options.goldenMinShare ?? 0.05;
  if (!Number.isInteger(minTrades) || minTrades < 1) throw new Error(`invalid goldenMinTrades: ${minTrades}`);
  if (!(minShare >= 0 && minShare <= 1)) throw new Error(`invalid goldenMinShare: ${minShare}`);
  return { minTrades, minShare };
}

/** What one pass over the trades in entry order sums, per group and for the resolved verdicts. */
interface Sums {
  acc: TargetAccumulator;
  counts: Float64Array;
  ambiguousCounts: Float64Array;
  resolvedAcc: TargetAccumulator;
  tp1ThenSl: number;
  carriesResolution: boolean;
  resolvedByLowerTimeframe: number;
}

/**
 * The pass over the trades, a function of its own: V8 optimises a long loop while it runs (on-stack
 * replacement) and keeps that code for the next call. Code after the loop in the same function had
 * no type feedback when the loop was compiled, so later calls left the kept code there (with trading
 * costs, every call) and finished in the interpreter (docs/PERFORMANCE.md, "Trading costs in
 * instructions").
 */
function accumulate(trades: readonly Trade[], order: Int32Array): Sums {
  const acc = new TargetAccumulator(GROUPS);
  const counts = new Float64Array(GROUPS);
  const ambiguousCounts = new Float64Array(GROUPS);
  const resolvedAcc = new TargetAccumulator(1);
  let tp1ThenSl = 0;
  let carriesResolution = false;
  let resolvedByLowerTimeframe = 0;
  const groupsOf = new Int32Array(4);

  for (let k = 0; k < order.length; k++) {
    const trade = trades[order[k]];
    checkTrade(trade, order[k]);
    groupsOf[0] = GLOBAL;
    groupsOf[1] = SESSION0 + sessionIndexForHour(trade.hour);
    groupsOf[2] = HOUR0 + trade.hour;
    groupsOf[3] = WEEKDAY0 + trade.weekday;
    for (let g = 0; g < 4; g++) {
      const index = groupsOf[g];
      counts[index]++;
      if (trade.ambiguous) ambiguousCounts[index]++;
      acc.add(index, 0, trade.tp1Result, trade.rTp1);
      acc.add(index, 1, trade.tp2Result, trade.rTp2);
    }
    if (trade.tp1Result === 'win' && trade.tp2Result === 'loss') tp1ThenSl++;

    const resolvedTp1 = trade.resolvedTp1Result ?? trade.tp1Result;
    const resolvedTp2 = trade.resolvedTp2Result ?? trade.tp2Result;
    if (trade.resolvedTp1Result != null || trade.resolvedTp2Result != null) {
      carriesResolution = true;
      if (trade.ambiguous) resolvedByLowerTimeframe++;
    }
    resolvedAcc.add(0, 0, resolvedTp1, rForVerdict(trade, resolvedTp1, trade.tp1Result, trade.rTp1, 0));
    resolvedAcc.add(0, 1, resolvedTp2, rForVerdict(trade, resolvedTp2, trade.tp2Result, trade.rTp2, 1));
  }
  return { acc, counts, ambiguousCounts, resolvedAcc, tp1ThenSl, carriesResolution, resolvedByLowerTimeframe };
}

/**
 * Statistics of a run's trades (docs/architecture.md §2): global, sessions, hours, weekdays, TP2 and golden
 * hours, each win rate with its Wilson 95 % interval, plus the same-candle ambiguity figures.
 * Trades may come in any order; order-dependent figures use entry order.
 */
export function computeStatistics(trades: readonly Trade[], options: StatisticsOptions = {}): BacktestStatistics {
  const { minTrades, minShare } = checkOptions(options);
  const order = entryOrder(trades);
  const { acc, counts, ambiguousCounts, resolvedAcc, tp1ThenSl, carriesResolution, resolvedByLowerTimeframe } = accumulate(trades, order);

  let firstTradeTime: number | null = null;
  let lastTradeTime: number | null = null;
  if (order.length > 0) {
    firstTradeTime = trades[order[0]].entryTime;
    lastTradeTime = trades[order[order.length - 1]].entryTime;
  }
  const global: GlobalStatistics = { ...group(acc, GLOBAL, counts[GLOBAL], ambiguousCounts[GLOBAL]), tp1ThenSl, firstTradeTime, lastTradeTime };

  const sessions = SESSION_BUCKETS.map((bucket, s) => ({
    session: bucket.name,
    hoursUtc: sessionHoursLabel(bucket),
    ...group(acc, SESSION0 + s, counts[SESSION0 + s], ambiguousCounts[SESSION0 + s]),
  }));
  const byHour = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    ...group(acc, HOUR0 + hour, counts[HOUR0 + hour], ambiguousCounts[HOUR0 + hour]),
  }));
  const byWeekday = WEEKDAY_LABELS.map((label, weekday) => ({
    weekday,
    label,
    ...group(acc, WEEKDAY0 + weekday, counts[WEEKDAY0 + weekday], ambiguousCounts[WEEKDAY0 + weekday]),
  }));

  const resolvedFigures: { tp1: TargetFigures; tp2: TargetFigures } | null = carriesResolution
    ? { tp1: resolvedAcc.figures(0, 0), tp2: resolvedAcc.figures(0, 1) }
    : null;
  const ambiguity: AmbiguityStatistics = { ambiguous: global.ambiguous, resolvedByLowerTimeframe, resolved: resolvedFigures };

  return { global, sessions, byHour, byWeekday, goldenHours: rankGoldenHours(global, byHour, minTrades, minShare), ambiguity };
}
