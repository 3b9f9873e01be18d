import type { RunCosts } from '../costs/quotes.js';
import { CHUNK } from '../patterns/candidates.js';
import type { PriceSeries, Setups } from '../patterns/types.js';
import { sessionForHour } from '../stats/buckets.js';
import { resolveWithLowerTimeframe, type LowerTimeframe } from './ambiguity.js';
import { NO_ENTRIES, type Entries } from './entries.js';
import { fastWalk, priceBlocks, walkIn, walkOutCandles, walkOutPrices, type PriceBlocks } from './fast-walk.js';
import { placeLevels, priceRounding, roundPrice, validateExitRules, type ExitRules, type Levels } from './levels.js';
import type { Outcome, TargetResult, Trade } from './types.js';
import { newWalkState } from './walk.js';

export interface SimulationOptions {
  /** Lower-timeframe candles to resolve ambiguous candles (resolved figures). */
  readonly ltf?: LowerTimeframe;
  /**
   * Trading costs (docs/engine.md §13): sells are walked on the ask series, and every trade's
   * commission and entry slippage (and slippage at the stop) are charged in R.
   */
  readonly costs?: RunCosts;
  /**
   * Write the table into working columns reused from one call to the next (the optimiser's many
   * combinations would otherwise allocate a table each): the returned table is valid until the
   * next call with `scratch`. Same kernel, same trades.
   */
  readonly scratch?: boolean;
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
  /** With costs: per trade, commission + slippage at entry and the spread of the entry candle (price units); the slippage at a stop. */
  readonly costs: TradeCosts | null;
}

export interface TradeCosts {
  readonly entry: Float64Array;
  readonly spread: Float64Array;
  readonly stopSlippage: number;
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
  const m = entries.count;
  const costs = options.costs && (options.costs.spread !== null || options.costs.slippage > 0 || options.costs.commission > 0 || options.costs.commissionPerPrice > 0) ? options.costs : null;
  const blocks = priceBlocks(series.high, series.low);
  const scratch = options.scratch === true;
  const run = newTableRun(series, blocks, setups.stop, entries, rules, options.ltf, costs, costs && costs.spread ? priceBlocks(costs.ask.high, costs.ask.low) : blocks, scratch);
  for (let k = 0; k < m; k += CHUNK) simulateRange(run, k, Math.min(m, k + CHUNK));
  const t = run.t;
  // Typed-array `slice` is native, so one generic helper costs nothing here.
  const cut = <T extends Int8Array | Uint8Array | Int32Array | Float64Array>(a: T): T => (t === m ? a : scratch ? (a.subarray(0, t) as T) : (a.slice(0, t) as T));
  const table: TradeTable = {
    count: t,
    setup: cut(run.setup),
    entryIndex: cut(run.entryIndex),
    side: cut(run.side),
    orderPrice: cut(run.orderPrice),
    entryPrice: cut(run.entryPrice),
    sl: cut(run.sl),
    tp1: cut(run.tp1),
    tp2: cut(run.tp2),
    r1: cut(run.r1),
    r2: cut(run.r2),
    tp1At: cut(run.tp1At),
    tp2At: cut(run.tp2At),
    slAt: cut(run.slAt),
    fav: cut(run.fav),
    adv: cut(run.adv),
    ambiguous: cut(run.ambiguousFlag),
    resolved1: cut(run.resolved1),
    resolved2: cut(run.resolved2),
    costs: costs ? { entry: cut(run.entryCost), spread: cut(run.entrySpread), stopSlippage: costs.slippage } : null,
  };
  const result: TableSimulation = { table, skippedNoRisk: run.skippedNoRisk, ambiguity: { count: run.ambiguous, resolved: run.resolved, unresolved: run.unresolved } };
  release(run);
  return result;
}

// The last run's state stays alive, emptied: V8 holds maps only weakly, and when a full GC finds
// no TableRun, simulateRange (optimised for its map) is deoptimised and recompiled next run.
let lastRun: TableRun | null = null;
const none = new Float64Array(0);
const noSeries: PriceSeries = { length: 0, time: none, open: none, high: none, low: none, close: none };

/** Drops the run's references to candles, entries and columns (the table has its own) and keeps the run. */
function release(run: TableRun): void {
  run.series = noSeries;
  run.ltf = undefined;
  run.blocks = priceBlocks(none, none);
  run.askBlocks = run.blocks;
  run.ask = noSeries;
  run.costs = null;
  run.entryCost = none;
  run.entrySpread = none;
  run.stops = none;
  run.entries = NO_ENTRIES;
  run.setup = NO_ENTRIES.setup;
  run.entryIndex = NO_ENTRIES.index;
  run.side = NO_ENTRIES.side;
  run.orderPrice = none;
  run.entryPrice = none;
  run.sl = none;
  run.tp1 = none;
  run.tp2 = none;
  run.r1 = NO_ENTRIES.side;
  run.r2 = NO_ENTRIES.side;
  run.tp1At = NO_ENTRIES.index;
  run.tp2At = NO_ENTRIES.index;
  run.slAt = NO_ENTRIES.index;
  run.fav = none;
  run.adv = none;
  run.ambiguousFlag = NO_ENTRIES.resting;
  run.resolved1 = NO_ENTRIES.side;
  run.resolved2 = NO_ENTRIES.side;
  lastRun = run;
}

/** The state of one simulateTable call, passed to its chunks. */
interface TableRun {
  series: PriceSeries;
  blocks: PriceBlocks;
  /** Blocks of the ask series, on which sells are walked (`blocks` without spread). */
  askBlocks: PriceBlocks;
  ask: PriceSeries;
  costs: RunCosts | null;
  entryCost: Float64Array;
  entrySpread: Float64Array;
  stops: Float64Array;
  entries: Entries;
  readonly rules: ExitRules;
  readonly scale: number;
  ltf: LowerTimeframe | undefined;
  readonly levels: Levels;
  t: number;
  skippedNoRisk: number;
  ambiguous: number;
  resolved: number;
  unresolved: number;
  setup: Int32Array;
  entryIndex: Int32Array;
  side: Int8Array;
  orderPrice: Float64Array;
  entryPrice: Float64Array;
  sl: Float64Array;
  tp1: Float64Array;
  tp2: Float64Array;
  r1: Int8Array;
  r2: Int8Array;
  tp1At: Int32Array;
  tp2At: Int32Array;
  slAt: Int32Array;
  fav: Float64Array;
  adv: Float64Array;
  ambiguousFlag: Uint8Array;
  resolved1: Int8Array;
  resolved2: Int8Array;
}

/** The one place a TableRun is made (one map for every run, kept alive by `lastRun`). */
function newTableRun(
  series: PriceSeries, blocks: PriceBlocks, stops: Float64Array, entries: Entries, rules: ExitRules, ltf: LowerTimeframe | undefined,
  costs: RunCosts | null, askBlocks: PriceBlocks, scratch: boolean,
): TableRun {
  const m = entries.count;
  const w = scratch ? workingColumns(m) : null;
  return {
    series,
    blocks,
    askBlocks,
    ask: costs ? costs.ask : series,
    costs,
    entryCost: costs ? (w ? w.entryCost.subarray(0, m) : new Float64Array(m)) : none,
    entrySpread: costs ? (w ? w.entrySpread.subarray(0, m) : new Float64Array(m)) : none,
    stops,
    entries,
    rules,
    scale: priceRounding(rules.pipSize),
    ltf,
    // Doubles from the start: a field that goes from small integer to double changes map.
    levels: { sl: NaN, tp1: NaN, tp2: NaN },
    t: 0,
    skippedNoRisk: 0,
    ambiguous: 0,
    resolved: 0,
    unresolved: 0,
    // While no entry is skipped, trade t is entry t: the entry columns are the table's too.
    setup: entries.setup,
    entryIndex: entries.index,
    side: entries.side,
    orderPrice: entries.orderPrice,
    entryPrice: entries.entryPrice,
    sl: w ? w.sl.subarray(0, m) : new Float64Array(m),
    tp1: w ? w.tp1.subarray(0, m) : new Float64Array(m),
    tp2: w ? w.tp2.subarray(0, m) : new Float64Array(m),
    r1: w ? w.r1.subarray(0, m) : new Int8Array(m),
    r2: w ? w.r2.subarray(0, m) : new Int8Array(m),
    tp1At: w ? w.tp1At.subarray(0, m) : new Int32Array(m),
    tp2At: w ? w.tp2At.subarray(0, m) : new Int32Array(m),
    slAt: w ? w.slAt.subarray(0, m) : new Int32Array(m),
    fav: w ? w.fav.subarray(0, m) : new Float64Array(m),
    adv: w ? w.adv.subarray(0, m) : new Float64Array(m),
    ambiguousFlag: w ? w.ambiguous.subarray(0, m).fill(0) : new Uint8Array(m),
    resolved1: (w ? w.resolved1.subarray(0, m) : new Int8Array(m)).fill(NONE),
    resolved2: (w ? w.resolved2.subarray(0, m) : new Int8Array(m)).fill(NONE),
  };
}

/** Working columns of `scratch` simulations, grown to the largest count seen. */
interface WorkingColumns {
  cap: number;
  sl: Float64Array; tp1: Float64Array; tp2: Float64Array; fav: Float64Array; adv: Float64Array; entryCost: Float64Array; entrySpread: Float64Array;
  r1: Int8Array; r2: Int8Array; resolved1: Int8Array; resolved2: Int8Array;
  tp1At: Int32Array; tp2At: Int32Array; slAt: Int32Array;
  ambiguous: Uint8Array;
}
let working: WorkingColumns | null = null;

function workingColumns(m: number): WorkingColumns {
  if (working && working.cap >= m) return working;
  const cap = Math.max(m, 2 * (working?.cap ?? 0), 1024);
  const f = () => new Float64Array(cap);
  working = {
    cap, sl: f(), tp1: f(), tp2: f(), fav: f(), adv: f(), entryCost: f(), entrySpread: f(),
    r1: new Int8Array(cap), r2: new Int8Array(cap), resolved1: new Int8Array(cap), resolved2: new Int8Array(cap),
    tp1At: new Int32Array(cap), tp2At: new Int32Array(cap), slAt: new Int32Array(cap), ambiguous: new Uint8Array(cap),
  };
  return working;
}

/** The first skipped entry: from then on trade t is no longer entry t, the entry columns are copied. */
function ownEntryColumns(run: TableRun): void {
  const m = run.entries.count;
  const copy = <T extends Int8Array | Int32Array | Float64Array>(a: T): T => {
    const b = new (a.constructor as new (n: number) => T)(m);
    b.set(a.subarray(0, run.t));
    return b;
  };
  run.setup = copy(run.setup);
  run.entryIndex = copy(run.entryIndex);
  run.side = copy(run.side);
  run.orderPrice = copy(run.orderPrice);
  run.entryPrice = copy(run.entryPrice);
}

/** Entries [k0, k1) of a simulateTable run (a chunk, see CHUNK). */
function simulateRange(run: TableRun, k0: number, k1: number): void {
  const { entries, rules, scale, levels, blocks, stops, ltf, series } = run;
  const external = rules.slMode === 'external';
  const pip = rules.pipSize;
  const slOffset = external ? rules.slPips! * pip : 0;
  const tp1Offset = external ? rules.tp1Pips! * pip : 0;
  const tp2Offset = external ? (rules.tp2Pips ?? 2 * rules.tp1Pips!) * pip : 0;
  const { setup: eSetup, side: eSide, orderPrice: eOrder, entryPrice: eFill, index: eIndex, resting: eResting } = entries;
  const { sl, tp1, tp2, r1, r2, tp1At, tp2At, slAt, fav, adv, ambiguousFlag, resolved1, resolved2, askBlocks, costs, entryCost, entrySpread } = run;
  const slip = costs ? costs.slippage : 0;
  const commission = costs ? costs.commission : 0;
  const commissionPerPrice = costs ? costs.commissionPerPrice : 0;
  const spread = costs ? costs.spread : null;
  let t = run.t;
  for (let k = k0; k < k1; k++) {
    const z = eSetup[k];
    const dir = eSide[k];
    const p = eOrder[k];
    const fill = eFill[k];
    const j = eIndex[k];
    const resting = eResting[k] === 1;
    if (external) {
      // placeLevels' external branch, inlined: `dir * (pips * pip)` is `(dir * pips) * pip` exactly.
      levels.sl = roundPrice(p - dir * slOffset, scale);
      levels.tp1 = roundPrice(p + dir * tp1Offset, scale);
      levels.tp2 = roundPrice(p + dir * tp2Offset, scale);
    } else if (!placeLevels(rules, dir, p, stops[z], levels, scale)) {
      if (run.setup === eSetup) {
        run.t = t;
        ownEntryColumns(run);
      }
      run.skippedNoRisk++;
      continue;
    }
    walkIn[0] = fill;
    walkIn[1] = levels.sl;
    walkIn[2] = levels.tp1;
    walkIn[3] = levels.tp2;
    // A buy exits on the bid (the candles), a sell on the ask (docs/engine.md §13).
    fastWalk(dir > 0 ? blocks : askBlocks, dir, j, resting);
    const o = walkOutCandles;
    if (run.setup !== eSetup) {
      run.setup[t] = z;
      run.entryIndex[t] = j;
      run.side[t] = dir;
      run.orderPrice[t] = p;
      run.entryPrice[t] = fill;
    }
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
    if (costs !== null) {
      entryCost[t] = (resting ? 0 : slip) + commission + commissionPerPrice * fill;
      entrySpread[t] = spread !== null ? spread[j] : 0;
    }
    if (o[5] === 1) {
      ambiguousFlag[t] = 1;
      run.ambiguous++;
      if (ltf) {
        const { sl: s, tp1: a, tp2: b } = levels;
        const ltfAsk = ltf.ask ?? ltf.series;
        const r = costs
          ? resolveWithLowerTimeframe(dir > 0 ? series : run.ask, ltf, () => newWalkState(dir, fill, s, a, b), j, resting, p, {
              small: dir > 0 ? ltf.series : ltfAsk,
              fillSmall: dir > 0 ? ltfAsk : ltf.series,
            })
          : resolveWithLowerTimeframe(series, ltf, () => newWalkState(dir, fill, s, a, b), j, resting, p);
        if (r.decided1) resolved1[t] = r.r1;
        if (r.decided2) resolved2[t] = r.r2;
        if (r.decided1 && r.decided2) run.resolved++;
        else run.unresolved++;
      }
    }
    t++;
  }
  run.t = t;
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
  // Pushed in order: `new Array(n)` of 100,000 or more is a dictionary in V8, slow to fill and to read.
  const trades: Trade[] = [];
  for (let t = 0; t < table.count; t += CHUNK) tradeRecords(trades, series.time, setups.confirmedAt, table, pipSize, t, Math.min(table.count, t + CHUNK));
  return trades;
}

/** tradesFromTable for trades [t0, t1) (a chunk, see CHUNK). */
function tradeRecords(trades: Trade[], time: Float64Array, confirmedAt: Int32Array, table: TradeTable, pipSize: number, t0: number, t1: number): void {
  const costs = table.costs;
  const stopCost = costs ? costs.stopSlippage : 0;
  // The same for every trade of the run: computed once, not per record.
  const stopCostPips = costs ? round6(stopCost / pipSize) : 0;
  for (let t = t0; t < t1; t++) {
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
    // Costs in R (docs/engine.md §13): commission and entry slippage on every closed target, the
    // slippage at the stop on a target lost there; an open target has no result and no cost.
    const entryCost = costs ? costs.entry[t] : 0;
    trades.push({
      id: t + 1,
      side: table.side[t] > 0 ? 'buy' : 'sell',
      signalTime: time[confirmedAt[table.setup[t]]],
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
      rTp1: targetR(r1, Math.abs(tp1 - p), risk, entryCost, stopCost, costs !== null),
      rTp2: targetR(r2, Math.abs(tp2 - p), risk, entryCost, stopCost, costs !== null),
      ambiguous: table.ambiguous[t] === 1,
      resolvedTp1Result: table.resolved1[t] === NONE ? null : verdict(table.resolved1[t]),
      resolvedTp2Result: table.resolved2[t] === NONE ? null : verdict(table.resolved2[t]),
      hour,
      weekday: (((Math.floor(entryTime / DAY_MS) + 3) % 7) + 7) % 7,
      session: SESSION_BY_HOUR[hour],
      spreadPips: costs ? round6(costs.spread[t] / pipSize) : 0,
      costPips: costs ? round6(entryCost / pipSize) : 0,
      stopCostPips,
    });
  }
}

/**
 * R of one target (docs/engine.md §6, §13): verdict 1 win, -1 loss, 0 open; `reward` the target's
 * distance from the order price, `risk` the stop's; with costs, the bracket's R less the costs over
 * the risk. Rounded to 1e-9. The one definition: `Trade` records and the optimiser's figures.
 */
export function targetR(verdict: number, reward: number, risk: number, entryCost: number, stopCost: number, costs: boolean): number {
  if (!costs) return verdict === 1 ? round9(reward / risk) : verdict;
  if (verdict === 0) return 0;
  return verdict === 1 ? round9((reward - entryCost) / risk) : round9(-1 - (entryCost + stopCost) / risk);
}

/** simulateTable, then the `Trade` records. */
export function simulateTrades(series: PriceSeries, setups: Setups, entries: Entries, rules: ExitRules, options: SimulationOptions = {}): Simulation {
  const sim = simulateTable(series, setups, entries, rules, options);
  return { ...sim, trades: tradesFromTable(series, setups, sim.table, rules.pipSize) };
}
