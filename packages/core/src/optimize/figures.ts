// What an optimisation ranks: the statistics module's own figures (TargetAccumulator), computed
// from the columnar trade table without building Trade records, with targetR's R.
import type { TradeTable } from '../simulate/trades.js';
import { targetR } from '../simulate/trades.js';
import { TargetAccumulator } from '../stats/accumulator.js';
import type { TargetFigures } from '../stats/types.js';

export type Objective = 'expectancy' | 'profit_factor' | 'winrate_low';
export const OBJECTIVES: readonly Objective[] = ['expectancy', 'profit_factor', 'winrate_low'];

export interface TableFigures {
  readonly trades: number;
  readonly tp1: TargetFigures;
  readonly tp2: TargetFigures;
}

/** TP1 and TP2 figures of a trade table, exactly as computeStatistics gives them for its trades. */
export function tableFigures(table: TradeTable): TableFigures {
  const acc = new TargetAccumulator(1);
  const costs = table.costs;
  const stop = costs ? costs.stopSlippage : 0;
  const { orderPrice, sl, tp1, tp2, r1, r2 } = table;
  for (let t = 0; t < table.count; t++) {
    const p = orderPrice[t];
    const risk = Math.abs(p - sl[t]);
    const entry = costs ? costs.entry[t] : 0;
    acc.addCode(0, 0, r1[t], targetR(r1[t], Math.abs(tp1[t] - p), risk, entry, stop, costs !== null));
    acc.addCode(0, 1, r2[t], targetR(r2[t], Math.abs(tp2[t] - p), risk, entry, stop, costs !== null));
  }
  return { trades: table.count, tp1: acc.figures(0, 0), tp2: acc.figures(0, 1) };
}

/**
 * The objective's value, higher is better; null when it is undefined (no resolved trade). A
 * profit factor without any losing trade is +Infinity: better than any finite one (the minimum
 * trade count keeps a lucky handful of trades out).
 */
export function objectiveValue(f: TargetFigures, objective: Objective): number | null {
  switch (objective) {
    case 'expectancy':
      return f.expectancyR;
    case 'profit_factor':
      return f.profitFactor ?? (f.resolved > 0 && f.losses === 0 && f.wins > 0 ? Infinity : null);
    case 'winrate_low':
      return f.winrateCi95 ? f.winrateCi95[0] : null;
    default:
      throw new Error(`invalid objective: ${JSON.stringify(objective)} (expected ${OBJECTIVES.join(', ')})`);
  }
}
