import type { PriceSeries, Setups } from '../patterns/types.js';
import { sessionForHour } from '../stats/buckets.js';
import { resolveWithLowerTimeframe, type LowerTimeframe } from './ambiguity.js';
import type { Entries } from './entries.js';
import { fastWalk, priceBlocks, walkIn, walkOutCandles, walkOutPrices } from './fast-walk.js';
import { placeLevels, priceRounding, validateExitRules, type ExitRules, type Levels } from './levels.js';
import type { Outcome, TargetResult, Trade } from './types.js';
import { newWalkState } from './walk.js';

export interface SimulationOptions {
  /** Lower-timeframe candles to resolve ambiguous candles (resolved figures). */
  readonly ltf?: LowerTimeframe;
}

export interface AmbiguitySummary {
  /** Trades whose SL and a TP fell in the same candle (counted as SL). */
  readonly count: number;
  /** With lower-timeframe candles: ambiguous trades the smaller candles fully decided, and the others. */
  readonly resolved: number;
  readonly unresolved: number;
}

/** Target verdicts in the table: 1 win, -1 loss, 0 open; resolved verdicts use NONE for null. */
export const NONE = 2;

/**
 * Trades as parallel typed arrays, in entry order: what the hot path produces. `tradesFromTable`
 * turns it into `Trade` records for statistics, reports and JSON.
 */
export interface TradeTable {
  readonly count: number;
  readonly setup: Int32Array;
  readonly entryIndex: Int32Array;
  readonly side: Int8Array;
  readonly orderPrice: Float64Array;
  readonly entryPrice: Float64Array;
  readonly sl: Float64Array;
  readonly tp1: Float64Array;
  readonly tp2: Float64Array;
  readonly r1: Int8Array;
  readonly r2: Int8Array;
  readonly tp1At: Int32Array;
  readonly tp2At: Int32Array;
  readonly slAt: Int32Array;
  /** Excursions from the fill in price units. */
  readonly fav: Float64Array;
  readonly adv: Float64Array;
  readonly ambiguous: Uint8Array;
  readonly resolved1: Int8Array;
  readonly resolved2: Int8Array;
}

export interface TableSimulation {
  readonly table: TradeTable;
  /** Entries dropped because the internal stop left no positive risk. */
  readonly skippedNoRisk: number;
  readonly ambiguity: AmbiguitySummary;
}

export interface Simulation extends TableSimulation {
  readonly trades: Trade[];
}

/**
 * Simulates every entry as an independent trade (this measures setups; it is not a portfolio):
 * levels from the order price, the conservative walk (fast-walk.ts, rules in walk.ts), and with
 * lower-timeframe candles the resolved verdicts of ambiguous trades. A resolved verdict is set
 * only where the smaller candles decided that target: it stays null (NONE) for clear trades,
 * without smaller candles, and where a smaller candle still held SL and the pending TP.
 */
export function simulateTable(series: PriceSeries, setups: Setups, entries: Entries, rules: ExitRules, options: SimulationOptions = {}): TableSimulation {
  validateExitRules(rules);
  const { high, low } = series;
  const ltf = options.ltf;
  const m = entries.count;
  const scale = priceRounding(rules.pipSize);
  const setup = new Int32Array(m);
  const entryIndex = new Int32Array(m);
  const side = new Int8Array(m);
  const orderPrice = new Float64Array(m);
  const entryPrice = new Float64Array(m);
  const sl = new Float64Array(m);
  const tp1 = new Float64Array(m);
  const tp2 = new Float64Array(m);
  const r1 = new Int8Array(m);
  const r2 = new Int8Array(m);
  const tp1At = new Int32Array(m);
  const tp2At = new Int32Array(m);
  const slAt = new Int32Array(m);
  const fav = new Float64Array(m);
  const adv = new Float64Array(m);
  const ambiguous = new Uint8Array(m);
  const resolved1 = new Int8Array(m).fill(NONE);
  const resolved2 = new Int8Array(m).fill(NONE);
  const blocks = priceBlocks(high, low);
  const levels: Levels = { sl: 0, tp1: 0, tp2: 0 };
  let t = 0;
  let skippedNoRisk = 0;
  let nAmbiguous = 0;
  let resolved = 0;
  let unresolved = 0;
  for (let k = 0; k < m; k++) {
    const z = entries.setup[k];
    const dir = entries.side[k];
    const p = entries.orderPrice[k];
    const fill = entries.entryPrice[k];
    const j = entries.index[k];
    const resting = entries.resting[k] === 1;
    if (!placeLevels(rules, dir, p, setups.stop[z], levels, scale)) {
      skippedNoRisk++;
      continue;
    }
    walkIn[0] = fill;
    walkIn[1] = levels.sl;
    walkIn[2] = levels.tp1;
    walkIn[3] = levels.tp2;
    fastWalk(blocks, dir, j, resting);
    const o = walkOutCandles;
    setup[t] = z;
    entryIndex[t] = j;
    side[t] = dir;
    orderPrice[t] = p;
    entryPrice[t] = fill;
    sl[t] = levels.sl;
    tp1[t] = levels.tp1;
    tp2[t] = levels.tp2;
    r1[t] = o[0];
    r2[t] = o[1];
    tp1At[t] = o[2];
    tp2At[t] = o[3];
    slAt[t] = o[4];
    fav[t] = walkOutPrices[0];
    adv[t] = walkOutPrices[1];
    if (o[5] === 1) {
      ambiguous[t] = 1;
      nAmbiguous++;
      if (ltf) {
        const { sl: s, tp1: a, tp2: b } = levels;
        const r = resolveWithLowerTimeframe(series, ltf, () => newWalkState(dir, fill, s, a, b), j, resting, p);
        if (r.decided1) resolved1[t] = r.r1;
        if (r.decided2) resolved2[t] = r.r2;
        if (r.decided1 && r.decided2) resolved++;
        else unresolved++;
      }
    }
    t++;
  }
  // Typed-array `slice` is native, so one generic helper costs nothing here.
  const cut = <T extends Int8Array | Uint8Array | Int32Array | Float64Array>(a: T): T => (t === m ? a : (a.slice(0, t) as T));
  const table: TradeTable = {
    count: t,
    setup: cut(setup),
    entryIndex: cut(entryIndex),
    side: cut(side),
    orderPrice: cut(orderPrice),
    entryPrice: cut(entryPrice),
    sl: cut(sl),
    tp1: cut(tp1),
    tp2: cut(tp2),
    r1: cut(r1),
    r2: cut(r2),
    tp1At: cut(tp1At),
    tp2At: cut(tp2At),
    slAt: cut(slAt),
    fav: cut(fav),
    adv: cut(adv),
    ambiguous: cut(ambiguous),
    resolved1: cut(resolved1),
    resolved2: cut(resolved2),
  };
  return { table, skippedNoRisk, ambiguity: { count: nAmbiguous, resolved, unresolved } };
}

const RESULT: readonly TargetResult[] = ['loss', 'open', 'win'];
const verdict = (r: number): TargetResult => RESULT[r + 1];
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const round9 = (x: number) => Math.round(x * 1e9) / 1e9;
const SESSION_BY_HOUR = Array.from({ length: 24 }, (_, h) => sessionForHour(h));

/**
 * `Trade` records from the table: times from candle indices, pips from price units (rounded to
 * 1e-6 pip), R multiples (rounded to 1e-9), entry hour, weekday (0 = Monday) and session in UTC.
 */
export function tradesFromTable(series: PriceSeries, setups: Setups, table: TradeTable, pipSize: number): Trade[] {
  const time = series.time;
  const trades: Trade[] = new Array(table.count);
  for (let t = 0; t < table.count; t++) {
    const p = table.orderPrice[t];
    const sl = table.sl[t];
    const tp1 = table.tp1[t];
    const tp2 = table.tp2[t];
    const r1 = table.r1[t];
    const r2 = table.r2[t];
    const risk = Math.abs(p - sl);
    const entryTime = time[table.entryIndex[t]];
    const hour = ((Math.floor(entryTime / HOUR_MS) % 24) + 24) % 24;
    const outcome: Outcome = r2 === 1 ? 'tp2' : r1 === 1 ? 'tp1' : r1 === -1 ? 'sl' : 'open';
    trades[t] = {
      id: t + 1,
      side: table.side[t] > 0 ? 'buy' : 'sell',
      signalTime: time[setups.confirmedAt[table.setup[t]]],
      entryTime,
      entryIndex: table.entryIndex[t],
      orderPrice: p,
      entryPrice: table.entryPrice[t],
      sl,
      tp1,
      tp2,
      riskPips: round6(risk / pipSize),
      tp1Result: verdict(r1),
      tp2Result: verdict(r2),
      outcome,
      tp1Time: table.tp1At[t] >= 0 ? time[table.tp1At[t]] : null,
      tp2Time: table.tp2At[t] >= 0 ? time[table.tp2At[t]] : null,
      slTime: table.slAt[t] >= 0 ? time[table.slAt[t]] : null,
      mfePips: round6(table.fav[t] / pipSize),
      maePips: round6(table.adv[t] / pipSize),
      rTp1: r1 === 1 ? round9(Math.abs(tp1 - p) / risk) : r1,
      rTp2: r2 === 1 ? round9(Math.abs(tp2 - p) / risk) : r2,
      ambiguous: table.ambiguous[t] === 1,
      resolvedTp1Result: table.resolved1[t] === NONE ? null : verdict(table.resolved1[t]),
      resolvedTp2Result: table.resolved2[t] === NONE ? null : verdict(table.resolved2[t]),
      hour,
      weekday: (((Math.floor(entryTime / DAY_MS) + 3) % 7) + 7) % 7,
      session: SESSION_BY_HOUR[hour],
    };
  }
  return trades;
}

/** simulateTable, then the `Trade` records. */
export function simulateTrades(series: PriceSeries, setups: Setups, entries: Entries, rules: ExitRules, options: SimulationOptions = {}): Simulation {
  const sim = simulateTable(series, setups, entries, rules, options);
  return { ...sim, trades: tradesFromTable(series, setups, sim.table, rules.pipSize) };
}
