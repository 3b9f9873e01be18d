import type { TargetResult } from '../simulate/types.js';
import type { TargetFigures } from './types.js';
import { wilsonInterval } from './wilson.js';

const TARGETS = 2;

/**
 * Running per-group, per-target tallies fed with trades in entry order. One pass over typed
 * arrays: the order-dependent figures (drawdown, streak) need the order anyway, and a few
 * dozen groups x two targets fit in a handful of small Float64Arrays.
 */
export class TargetAccumulator {
  readonly groups: number;
  private readonly wins: Float64Array;
  private readonly losses: Float64Array;
  private readonly open: Float64Array;
  private readonly sumR: Float64Array;
  private readonly grossWin: Float64Array;
  private readonly grossLoss: Float64Array;
  private readonly cumR: Float64Array;
  private readonly peakR: Float64Array;
  private readonly maxDrawdown: Float64Array;
  private readonly streak: Float64Array;
  private readonly maxStreak: Float64Array;

  constructor(groups: number) {
    this.groups = groups;
    const size = groups * TARGETS;
    this.wins = new Float64Array(size);
    this.losses = new Float64Array(size);
    this.open = new Float64Array(size);
    this.sumR = new Float64Array(size);
    this.grossWin = new Float64Array(size);
    this.grossLoss = new Float64Array(size);
    this.cumR = new Float64Array(size);
    this.peakR = new Float64Array(size);
    this.maxDrawdown = new Float64Array(size);
    this.streak = new Float64Array(size);
    this.maxStreak = new Float64Array(size);
  }

  /** Adds one trade's verdict and R at target `target` (0 = TP1, 1 = TP2) to group `group`. */
  add(group: number, target: number, verdict: TargetResult, r: number): void {
    this.addCode(group, target, verdict === 'win' ? 1 : verdict === 'loss' ? -1 : 0, r);
  }

  /** `add` with the verdict as the engine's code: 1 win, -1 loss, 0 open (the trade table's). */
  addCode(group: number, target: number, verdict: number, r: number): void {
    const i = target * this.groups + group;
    if (verdict === 0) {
      this.open[i]++;
      return;
    }
    if (verdict === 1) {
      this.wins[i]++;
      this.streak[i] = 0;
    } else {
      this.losses[i]++;
      const streak = ++this.streak[i];
      if (streak > this.maxStreak[i]) this.maxStreak[i] = streak;
    }
    this.sumR[i] += r;
    if (r > 0) this.grossWin[i] += r;
    else this.grossLoss[i] -= r;
    const cum = (this.cumR[i] += r);
    if (cum > this.peakR[i]) this.peakR[i] = cum;
    else if (this.peakR[i] - cum > this.maxDrawdown[i]) this.maxDrawdown[i] = this.peakR[i] - cum;
  }

  figures(group: number, target: number): TargetFigures {
    const i = target * this.groups + group;
    return figuresOf(this.wins[i], this.losses[i], this.open[i], this.sumR[i], this.grossWin[i], this.grossLoss[i], this.maxDrawdown[i], this.maxStreak[i]);
  }
}

/** A target's figures from its tallies (TargetAccumulator's, or the optimiser's exit grid's). */
export function figuresOf(wins: number, losses: number, open: number, sumR: number, grossWin: number, grossLoss: number, maxDrawdown: number, maxStreak: number): TargetFigures {
  const resolved = wins + losses;
  return {
    resolved,
    wins,
    losses,
    open,
    winrate: resolved > 0 ? wins / resolved : null,
    winrateCi95: wilsonInterval(wins, resolved),
    expectancyR: resolved > 0 ? sumR / resolved : null,
    totalR: sumR,
    profitFactor: grossLoss > 0 ? grossWin / grossLoss : null,
    maxDrawdownR: maxDrawdown,
    longestLosingStreak: maxStreak,
  };
}
