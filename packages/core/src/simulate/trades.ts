import type { PriceSeries, Setups } from '../patterns/types.js';
import { resolveWithLowerTimeframe, type LowerTimeframe } from './ambiguity.js';
import type { Entries } from './entries.js';
import { placeLevels, validateExitRules, type ExitRules, type Levels } from './levels.js';
import { sessionForHour, utcWeekday } from '../stats/buckets.js';
import type { Outcome, TargetResult, Trade } from './types.js';
import { newWalkState, walk } from './walk.js';

export interface SimulationOptions {
  /** Lower-timeframe candles to resolve ambiguous candles (resolved figures). */
  readonly ltf?: LowerTimeframe;
}

export interface AmbiguitySummary {
  /** Trades whose SL and a TP fell in the same candle (counted as SL). */
  readonly count: number;
  /** With lower-timeframe candles: how many of them the smaller candles decided, and how many not. */
  readonly resolved: number;
  readonly unresolved: number;
}

export interface Simulation {
  readonly trades: Trade[];
  /** Entries dropped because the internal stop left no positive risk. */
  readonly skippedNoRisk: number;
  readonly ambiguity: AmbiguitySummary;
}

const RESULT: readonly TargetResult[] = ['loss', 'open', 'win'];
const HOUR_MS = 3_600_000;
const utcHour = (ms: number) => ((Math.floor(ms / HOUR_MS) % 24) + 24) % 24;
const result = (r: number): TargetResult => RESULT[r + 1];
const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/**
 * Turns entries into independent trades (this measures setups; it is not a portfolio): levels,
 * the conservative walk, R results, excursions in pips, entry hour/weekday/session in UTC, and
 * with lower-timeframe candles the resolved results of the ambiguous trades. A resolved result
 * is set only where the smaller candles decided that target; it stays null for clear trades
 * (their result needs no resolution), without smaller candles, and where a smaller candle still
 * held SL and the pending TP (statistics then fall back on the conservative result).
 */
export function simulateTrades(
  series: PriceSeries,
  setups: Setups,
  entries: Entries,
  rules: ExitRules,
  options: SimulationOptions = {},
): Simulation {
  validateExitRules(rules);
  const { length: n, time, high, low } = series;
  const pip = rules.pipSize;
  const ltf = options.ltf;
  const trades: Trade[] = [];
  const levels: Levels = { sl: 0, tp1: 0, tp2: 0 };
  let skippedNoRisk = 0;
  let ambiguous = 0;
  let resolved = 0;
  let unresolved = 0;
  for (let k = 0; k < entries.count; k++) {
    const z = entries.setup[k];
    const dir = entries.side[k];
    const p = entries.orderPrice[k];
    const fill = entries.entryPrice[k];
    const j = entries.index[k];
    const resting = entries.resting[k] === 1;
    if (!placeLevels(rules, dir, p, setups.stop[z], levels)) {
      skippedNoRisk++;
      continue;
    }
    const { sl, tp1, tp2 } = levels;
    const s = newWalkState(dir, fill, sl, tp1, tp2);
    walk(s, high, low, j, n, resting);
    const isAmbiguous = s.ambiguousAt >= 0;
    let res1: TargetResult | null = null;
    let res2: TargetResult | null = null;
    if (ltf && isAmbiguous) {
      const r = resolveWithLowerTimeframe(series, ltf, () => newWalkState(dir, fill, sl, tp1, tp2), j, resting, p);
      if (r.decided1) res1 = result(r.r1);
      if (r.decided2) res2 = result(r.r2);
      if (r.decided1 && r.decided2) resolved++;
      else unresolved++;
    }
    if (isAmbiguous) ambiguous++;
    const risk = Math.abs(p - sl);
    const rWin1 = round(Math.abs(tp1 - p) / risk, 9);
    const rWin2 = round(Math.abs(tp2 - p) / risk, 9);
    const outcome: Outcome = s.r2 === 1 ? 'tp2' : s.r1 === 1 ? 'tp1' : s.r1 === -1 ? 'sl' : 'open';
    const entryTime = time[j];
    const hour = utcHour(entryTime);
    trades.push({
      id: trades.length + 1,
      side: dir > 0 ? 'buy' : 'sell',
      signalTime: time[setups.confirmedAt[z]],
      entryTime,
      entryIndex: j,
      orderPrice: p,
      entryPrice: fill,
      sl,
      tp1,
      tp2,
      riskPips: round(risk / pip, 6),
      tp1Result: result(s.r1),
      tp2Result: result(s.r2),
      outcome,
      tp1Time: s.tp1At >= 0 ? time[s.tp1At] : null,
      tp2Time: s.tp2At >= 0 ? time[s.tp2At] : null,
      slTime: s.slAt >= 0 ? time[s.slAt] : null,
      mfePips: round(s.fav / pip, 6),
      maePips: round(s.adv / pip, 6),
      rTp1: s.r1 === 1 ? rWin1 : s.r1,
      rTp2: s.r2 === 1 ? rWin2 : s.r2,
      ambiguous: isAmbiguous,
      resolvedTp1Result: res1,
      resolvedTp2Result: res2,
      hour,
      weekday: utcWeekday(entryTime),
      session: sessionForHour(hour),
    });
  }
  return { trades, skippedNoRisk, ambiguity: { count: ambiguous, resolved, unresolved } };
}
