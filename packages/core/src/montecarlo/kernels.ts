// The Monte Carlo's kernels: bootstrap and shuffle runs in plain typed-array loops of a few
// nanoseconds per draw: about 5.5 ns of CPU per bootstrap draw (four runs per loop) and 8 ns per
// shuffle draw, where Math.max on doubles and a division per draw took 10 and 12.5 ns, with the
// same draws and results to the bit (docs/engine.md §15 "Kernels", docs/PERFORMANCE.md).
// Browser-safe: no Node API.

/** Per-run figures of one simulation: typed arrays filled by the kernels below. */
export interface RunFigures {
  readonly drawdown: Float64Array;
  readonly final: Float64Array;
  readonly streak: Float64Array;
  /** 1 for a run whose equity fell to the ruin level. */
  readonly ruin: Uint8Array;
}

/**
 * What the kernels read per drawn trade: `r[i]`; `growth[i]`, log(1 + risk × r[i]) (-Infinity when
 * the trade alone ruins); `losing[i]`, -1 when r[i] < 0 and 0 otherwise (a mask: the losing streak
 * stays in Int32, `(streak + 1) & losing[i]`).
 */
export interface Trades {
  readonly r: Float64Array;
  readonly growth: Float64Array;
  readonly losing: Int32Array;
}

// 2^-32: a 32-bit draw u gives u × 2^-32 in [0, 1), the very double seededRandom returns
// (u / 2^32; scaling by a power of two is exact). For an integer m < 2^53, m × 2^-32 is exact too,
// so u × (m × 2^-32) rounds u × m once and scales it exactly: the same double as (u / 2^32) × m,
// and the same index after `| 0`, for every m. One multiply per draw instead of a division and
// a multiply.
const TWO_POW_MINUS_32 = 1 / 4294967296;

/*
 * Peak and drawdown without Math.max. V8 compiles Math.max on doubles to compare-and-branch code
 * (for NaN and -0), and on random draws those branches are mispredicted so often that they took
 * half of the time (a ternary is a branch too). The kernels select through a small Float64Array
 * instead, indexed by the comparison (0 or 1): no branch. Two facts make it exactly Math.max:
 * - the values are never NaN nor -0 while the cumulative R is finite (it starts at +0 and adds
 *   finite R, x - x is +0; the peak starts at +0 and only takes a higher cumulative R); an
 *   overflow to +Infinity is handled after the kernels (monteCarlo);
 * - the drop is measured from the previous peak: when the cumulative R makes a new peak the drop
 *   is negative and the drawdown (>= 0) stays, as with the new peak's drop of 0; otherwise the
 *   previous peak is the peak. The drawdown's chain then does not wait for the peak's selection.
 * The losing streak is an Int32 (the `losing` mask) and its longest an Int32 Math.max.
 */

/**
 * Shuffle runs [from, to): each walks a Fisher-Yates permutation of the observed trades, drawn in
 * the same pass (position k takes a random one of k..n-1), starting from the previous run's order,
 * so the runs stay sequential. `ruinAt` is log(1 - ruinLevel).
 */
export function shuffleRange(t: Trades, ruinAt: number, order: Int32Array, state: Int32Array, out: RunFigures, from: number, to: number): void {
  const { r, growth, losing } = t;
  const n = r.length | 0;
  // [peak, cumulative R, drawdown, drop]: the selections' operands.
  const pick = new Float64Array(4);
  let a = state[0];
  for (let run = from; run < to; run++) {
    let cum = 0;
    let peak = 0;
    let dd = 0;
    let streak = 0;
    let longest = 0;
    let equity = 0;
    let ruin = 0;
    // (n - k) × 2^-32, exactly: the scale of position k's draw over the n - k remaining trades.
    let span = n * TWO_POW_MINUS_32;
    for (let k = 0; k < n; k++) {
      // core's seededRandom (mulberry32), inlined: a call per draw would box every double it returns.
      a = (a + 0x6d2b79f5) | 0;
      let m = Math.imul(a ^ (a >>> 15), a | 1);
      m ^= m + Math.imul(m ^ (m >>> 7), m | 61);
      const j = k + ((((m ^ (m >>> 14)) >>> 0) * span) | 0);
      span -= TWO_POW_MINUS_32;
      const i = order[j];
      order[j] = order[k];
      order[k] = i;
      cum += r[i];
      // The drop from the previous peak (see bootstrapQuads): the drawdown's chain does not wait
      // for the peak's selection.
      const drop = peak - cum;
      pick[0] = peak;
      pick[1] = cum;
      peak = pick[+(cum > peak)];
      pick[2] = dd;
      pick[3] = drop;
      dd = pick[2 + +(drop > dd)];
      streak = (streak + 1) & losing[i];
      longest = Math.max(longest, streak) | 0;
      equity += growth[i];
      ruin |= +(equity <= ruinAt);
    }
    out.drawdown[run] = dd;
    out.final[run] = cum;
    out.streak[run] = longest;
    out.ruin[run] = ruin;
  }
  state[0] = a;
}

/** mulberry32's state after `draws` steps from `seed` (its state only ever adds the same constant). */
function stateAfter(seed: number, draws: number): number {
  return (seed + Math.imul(draws, 0x6d2b79f5)) | 0;
}

/**
 * Bootstrap runs [from, to) (`to - from` a multiple of 4), four at a time, run q's figures at
 * q - base in `out`: run q draws `length` trades with replacement, its generator started where run q-1's ended (stateAfter), so the
 * draws are those of one stream of core's seededRandom, run after run. Four independent runs in
 * one loop keep the processor's pipelines full (each run alone is one long chain of dependent
 * additions).
 *
 * Peak and drawdown stay in `pick` (4 slots per run: peak, a discard slot, drawdown, a discard
 * slot), updated by one store whose index is the comparison: the cumulative R goes to the peak's
 * slot when it is higher, to the discard slot otherwise; likewise the drop. Fewer stores than the
 * shuffle's selection, but the next draw's load waits for that store: with four runs in flight it
 * is the faster form (about 4 %), with two or one it is the slower.
 */
export function bootstrapQuads(t: Trades, ruinAt: number, length: number, seed: number, out: RunFigures, base: number, from: number, to: number): void {
  const { r, growth, losing } = t;
  const scale = (r.length | 0) * TWO_POW_MINUS_32;
  const pick = new Float64Array(16);
  for (let run = from; run < to; run += 4) {
    let sa = stateAfter(seed, run * length);
    let sb = stateAfter(seed, (run + 1) * length);
    let sc = stateAfter(seed, (run + 2) * length);
    let sd = stateAfter(seed, (run + 3) * length);
    let cumA = 0, streakA = 0, longestA = 0, equityA = 0, ruinA = 0;
    let cumB = 0, streakB = 0, longestB = 0, equityB = 0, ruinB = 0;
    let cumC = 0, streakC = 0, longestC = 0, equityC = 0, ruinC = 0;
    let cumD = 0, streakD = 0, longestD = 0, equityD = 0, ruinD = 0;
    pick.fill(0);
    for (let k = 0; k < length; k++) {
      sa = (sa + 0x6d2b79f5) | 0;
      let ma = Math.imul(sa ^ (sa >>> 15), sa | 1);
      ma ^= ma + Math.imul(ma ^ (ma >>> 7), ma | 61);
      const ia = (((ma ^ (ma >>> 14)) >>> 0) * scale) | 0;
      sb = (sb + 0x6d2b79f5) | 0;
      let mb = Math.imul(sb ^ (sb >>> 15), sb | 1);
      mb ^= mb + Math.imul(mb ^ (mb >>> 7), mb | 61);
      const ib = (((mb ^ (mb >>> 14)) >>> 0) * scale) | 0;
      sc = (sc + 0x6d2b79f5) | 0;
      let mc = Math.imul(sc ^ (sc >>> 15), sc | 1);
      mc ^= mc + Math.imul(mc ^ (mc >>> 7), mc | 61);
      const ic = (((mc ^ (mc >>> 14)) >>> 0) * scale) | 0;
      sd = (sd + 0x6d2b79f5) | 0;
      let md = Math.imul(sd ^ (sd >>> 15), sd | 1);
      md ^= md + Math.imul(md ^ (md >>> 7), md | 61);
      const id = (((md ^ (md >>> 14)) >>> 0) * scale) | 0;
      cumA += r[ia];
      cumB += r[ib];
      cumC += r[ic];
      cumD += r[id];
      const peakA = pick[0], peakB = pick[4], peakC = pick[8], peakD = pick[12];
      const dropA = peakA - cumA, dropB = peakB - cumB, dropC = peakC - cumC, dropD = peakD - cumD;
      pick[1 - +(cumA > peakA)] = cumA;
      pick[5 - +(cumB > peakB)] = cumB;
      pick[9 - +(cumC > peakC)] = cumC;
      pick[13 - +(cumD > peakD)] = cumD;
      pick[3 - +(dropA > pick[2])] = dropA;
      pick[7 - +(dropB > pick[6])] = dropB;
      pick[11 - +(dropC > pick[10])] = dropC;
      pick[15 - +(dropD > pick[14])] = dropD;
      streakA = (streakA + 1) & losing[ia];
      streakB = (streakB + 1) & losing[ib];
      streakC = (streakC + 1) & losing[ic];
      streakD = (streakD + 1) & losing[id];
      longestA = Math.max(longestA, streakA) | 0;
      longestB = Math.max(longestB, streakB) | 0;
      longestC = Math.max(longestC, streakC) | 0;
      longestD = Math.max(longestD, streakD) | 0;
      equityA += growth[ia];
      equityB += growth[ib];
      equityC += growth[ic];
      equityD += growth[id];
      ruinA |= +(equityA <= ruinAt);
      ruinB |= +(equityB <= ruinAt);
      ruinC |= +(equityC <= ruinAt);
      ruinD |= +(equityD <= ruinAt);
    }
    const at = run - base;
    out.drawdown[at] = pick[2];
    out.final[at] = cumA;
    out.streak[at] = longestA;
    out.ruin[at] = ruinA;
    out.drawdown[at + 1] = pick[6];
    out.final[at + 1] = cumB;
    out.streak[at + 1] = longestB;
    out.ruin[at + 1] = ruinB;
    out.drawdown[at + 2] = pick[10];
    out.final[at + 2] = cumC;
    out.streak[at + 2] = longestC;
    out.ruin[at + 2] = ruinC;
    out.drawdown[at + 3] = pick[14];
    out.final[at + 3] = cumD;
    out.streak[at + 3] = longestD;
    out.ruin[at + 3] = ruinD;
  }
}
