// The optimiser's exit grid (docs/engine.md §14): combinations that share their entries and
// differ only in external stops and targets are judged without walking each trade again. Per
// entry, the first candle reaching each distinct stop level (S) and each distinct target level (T)
// is searched once with the walk's own search (fast-walk.ts); a combination's verdicts then follow
// from three of those candles, by the walk's rules (walk.ts):
//  - a resting order's fill candle counts only for the stop: reached there, S is that candle;
//  - S <= T1: the stop comes first or in the same candle (SL counts first): TP1 and TP2 lost,
//    unless neither is ever reached (open);
//  - T1 < S: TP1 won; TP2 won when T2 < S (T2 = T1 when the TP1 candle also reaches TP2), lost when
//    the stop comes first or in the same candle, open when neither comes.
// The search for a level farther than the previous one starts where that one was reached (a
// farther level is reached no earlier). Figures are tableFigures' of the table simulateTable would
// write: same levels (same rounding), same R (targetR), same order.
import type { RunCosts } from '../costs/quotes.js';
import type { PriceSeries } from '../patterns/types.js';
import type { Entries } from '../simulate/entries.js';
import { exitLevels, firstReach, priceBlocks, type PriceBlocks } from '../simulate/fast-walk.js';
import { targetR } from '../simulate/trades.js';
import { figuresOf } from '../stats/accumulator.js';
import type { TargetFigures } from '../stats/types.js';
import type { TableFigures } from './figures.js';

/** The costs simulateTable charges (null when it charges none). */
function activeCosts(costs: RunCosts | undefined): RunCosts | null {
  return costs && (costs.spread !== null || costs.slippage > 0 || costs.commission > 0 || costs.commissionPerPrice > 0) ? costs : null;
}

export class ExitGrid {
  private readonly m: number;
  private readonly n: number;
  private readonly nS: number;
  private readonly nT: number;
  private readonly slIndex = new Map<number, number>();
  private readonly tpIndex = new Map<number, number>();
  /** Per entry t: stop levels at t*nS+s, their first candles; target levels at t*nT+a, theirs. */
  private readonly slLevel: Float64Array;
  private readonly slAt: Int32Array;
  private readonly tpLevel: Float64Array;
  private readonly tpAt: Int32Array;
  private readonly entryCost: Float64Array | null;
  private readonly stopCost: number;
  private readonly tp1Figures = new Map<number, TargetFigures>();

  /**
   * `slPips` and `tpPips`: the distinct stop and target distances (pips) of the combinations to
   * judge (TP1 and TP2 together).
   */
  constructor(
    series: PriceSeries,
    private readonly entries: Entries,
    costs: RunCosts | undefined,
    private readonly pipSize: number,
    private readonly scale: number,
    slPips: readonly number[],
    tpPips: readonly number[],
  ) {
    const sl = [...new Set(slPips)].sort((a, b) => a - b);
    const tp = [...new Set(tpPips)].sort((a, b) => a - b);
    sl.forEach((v, i) => this.slIndex.set(v, i));
    tp.forEach((v, i) => this.tpIndex.set(v, i));
    const m = (this.m = entries.count);
    this.n = series.length;
    this.nS = sl.length;
    this.nT = tp.length;
    this.slLevel = new Float64Array(m * this.nS);
    this.slAt = new Int32Array(m * this.nS);
    this.tpLevel = new Float64Array(m * this.nT);
    this.tpAt = new Int32Array(m * this.nT);
    const active = activeCosts(costs);
    const blocks = priceBlocks(series.high, series.low);
    // A buy exits on the bid (the candles), a sell on the ask (docs/engine.md §13).
    const askBlocks = active && active.spread ? priceBlocks(active.ask.high, active.ask.low) : blocks;
    const slOffsets = Float64Array.from(sl, (v) => v * pipSize);
    const tpOffsets = Float64Array.from(tp, (v) => v * pipSize);
    for (let t = 0; t < m; t += 4096) this.passages(blocks, askBlocks, slOffsets, tpOffsets, t, Math.min(m, t + 4096));
    this.stopCost = active ? active.slippage : 0;
    this.entryCost = active ? new Float64Array(m) : null;
    if (active && this.entryCost) {
      const { resting, entryPrice } = entries;
      const { slippage, commission, commissionPerPrice } = active;
      // simulateTable's expression, term for term.
      for (let t = 0; t < m; t++) this.entryCost[t] = (resting[t] === 1 ? 0 : slippage) + commission + commissionPerPrice * entryPrice[t];
    }
  }

  /** First candles of entries [t0, t1) for every level. */
  private passages(blocks: PriceBlocks, askBlocks: PriceBlocks, slOffsets: Float64Array, tpOffsets: Float64Array, t0: number, t1: number): void {
    const { side, orderPrice, index, resting } = this.entries;
    const { nS, nT, scale, slLevel, slAt, tpLevel, tpAt } = this;
    for (let t = t0; t < t1; t++) {
      const dir = side[t];
      const p = orderPrice[t];
      const j = index[t];
      const rest = resting[t] === 1;
      const buy = dir > 0;
      const b = buy ? blocks : askBlocks;
      const start = rest ? j + 1 : j;
      let from = start;
      for (let s = 0; s < nS; s++) {
        // simulateRange's external levels: `Math.round((p - dir * offset) * scale) / scale`.
        const level = Math.round((p - dir * slOffsets[s]) * scale) / scale;
        slLevel[t * nS + s] = level;
        let at: number;
        if (rest && (buy ? b.low[j] <= level : -b.high[j] <= -level)) at = j;
        else {
          exitLevels[0] = buy ? level : -Infinity;
          exitLevels[1] = buy ? Infinity : level;
          at = firstReach(b, from);
          from = at;
        }
        slAt[t * nS + s] = at;
      }
      from = start;
      for (let a = 0; a < nT; a++) {
        const level = Math.round((p + dir * tpOffsets[a]) * scale) / scale;
        tpLevel[t * nT + a] = level;
        exitLevels[0] = buy ? -Infinity : level;
        exitLevels[1] = buy ? level : Infinity;
        const at = firstReach(b, from);
        from = at;
        tpAt[t * nT + a] = at;
      }
    }
  }

  /** Whether the grid holds these distances. */
  covers(slPips: number, tp1Pips: number, tp2Pips: number): boolean {
    return this.slIndex.has(slPips) && this.tpIndex.has(tp1Pips) && this.tpIndex.has(tp2Pips);
  }

  /** tableFigures of the combination with these exits (tp2Pips already defaulted). */
  figures(slPips: number, tp1Pips: number, tp2Pips: number): TableFigures {
    const s = this.slIndex.get(slPips)!;
    const a = this.tpIndex.get(tp1Pips)!;
    const b = this.tpIndex.get(tp2Pips)!;
    // TP1's figures depend on the stop and TP1 only: shared by every TP2 tried with them.
    const key = s * this.nT + a;
    let tp1 = this.tp1Figures.get(key);
    if (tp1 === undefined) {
      tp1 = this.target(s, a, -1);
      this.tp1Figures.set(key, tp1);
    }
    return { trades: this.m, tp1, tp2: this.target(s, a, b) };
  }

  /**
   * One target's figures: TargetAccumulator.addCode's tallies, in the same order, kept in locals.
   * `b` < 0: TP1 (target a); else TP2 (target b, after TP1 = a).
   */
  private target(s: number, a: number, b: number): TargetFigures {
    const { m, n, nS, nT, slLevel, slAt, tpLevel, tpAt, entryCost, stopCost } = this;
    const orderPrice = this.entries.orderPrice;
    const costs = entryCost !== null;
    const tp2 = b >= 0;
    const level = tp2 ? b : a;
    let wins = 0;
    let losses = 0;
    let open = 0;
    let sumR = 0;
    let grossWin = 0;
    let grossLoss = 0;
    let cum = 0;
    let peak = 0;
    let maxDrawdown = 0;
    let streak = 0;
    let maxStreak = 0;
    for (let t = 0; t < m; t++) {
      const S = slAt[t * nS + s];
      let v: number;
      if (S <= tpAt[t * nT + a]) v = S < n ? -1 : 0;
      else if (!tp2) v = 1;
      else v = tpAt[t * nT + b] < S ? 1 : S < n ? -1 : 0;
      if (v === 0) {
        open++;
        continue;
      }
      const p = orderPrice[t];
      const r = targetR(v, Math.abs(tpLevel[t * nT + level] - p), Math.abs(p - slLevel[t * nS + s]), costs ? entryCost[t] : 0, stopCost, costs);
      if (v === 1) {
        wins++;
        streak = 0;
      } else {
        losses++;
        if (++streak > maxStreak) maxStreak = streak;
      }
      sumR += r;
      if (r > 0) grossWin += r;
      else grossLoss -= r;
      cum += r;
      if (cum > peak) peak = cum;
      else if (peak - cum > maxDrawdown) maxDrawdown = peak - cum;
    }
    return figuresOf(wins, losses, open, sumR, grossWin, grossLoss, maxDrawdown, maxStreak);
  }
}
