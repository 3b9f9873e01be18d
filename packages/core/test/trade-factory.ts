// Hand-made Trade records for the statistics and report tests (not a test file itself).
import type { Outcome, Side, TargetResult, Trade } from '@bt/core';
import { sessionForHour, utcWeekday } from '@bt/core/stats';

/**
 * What happened to a trade: the engine's four outcomes, with `tp1` split by what followed TP1
 * (`tp1sl`: stopped before TP2; `tp1open`: still running at the end of data).
 */
export type Path = 'tp2' | 'tp1sl' | 'tp1open' | 'sl' | 'open';

export interface TradeSpec {
  readonly id: number;
  /** Entry time, ISO 8601 UTC. */
  readonly at: string;
  readonly path: Path;
  readonly side?: Side;
  /** Planned reward/risk at TP1 and TP2 (default 1 and 2). */
  readonly rr1?: number;
  readonly rr2?: number;
  readonly ambiguous?: boolean;
  readonly resolvedTp1Result?: TargetResult | null;
  readonly resolvedTp2Result?: TargetResult | null;
}

const PIP = 0.0001;

const RESULTS: Record<Path, [TargetResult, TargetResult, Outcome]> = {
  tp2: ['win', 'win', 'tp2'],
  tp1sl: ['win', 'loss', 'tp1'],
  tp1open: ['win', 'open', 'tp1'],
  sl: ['loss', 'loss', 'sl'],
  open: ['open', 'open', 'open'],
};

function r(result: TargetResult, rr: number): number {
  return result === 'win' ? rr : result === 'loss' ? -1 : 0;
}

export function makeTrade(spec: TradeSpec): Trade {
  const side = spec.side ?? 'buy';
  const rr1 = spec.rr1 ?? 1;
  const rr2 = spec.rr2 ?? 2;
  const entryTime = Date.parse(spec.at);
  if (Number.isNaN(entryTime)) throw new Error(`bad date ${spec.at}`);
  const [tp1Result, tp2Result, outcome] = RESULTS[spec.path];
  const dir = side === 'buy' ? 1 : -1;
  const price = 1.1;
  const riskPips = 10;
  const hour = new Date(entryTime).getUTCHours();
  const step = 5 * 60_000;
  return {
    id: spec.id,
    side,
    signalTime: entryTime - step,
    entryTime,
    entryIndex: spec.id * 10,
    orderPrice: price,
    entryPrice: price,
    sl: price - dir * riskPips * PIP,
    tp1: price + dir * rr1 * riskPips * PIP,
    tp2: price + dir * rr2 * riskPips * PIP,
    riskPips,
    tp1Result,
    tp2Result,
    outcome,
    tp1Time: tp1Result === 'win' ? entryTime + step : null,
    tp2Time: tp2Result === 'win' ? entryTime + 2 * step : null,
    slTime: tp1Result === 'loss' || tp2Result === 'loss' ? entryTime + 3 * step : null,
    mfePips: tp2Result === 'win' ? rr2 * riskPips : tp1Result === 'win' ? rr1 * riskPips : 3,
    maePips: tp1Result === 'loss' || tp2Result === 'loss' ? riskPips : 2,
    rTp1: r(tp1Result, rr1),
    rTp2: r(tp2Result, rr2),
    ambiguous: spec.ambiguous ?? false,
    resolvedTp1Result: spec.resolvedTp1Result ?? null,
    resolvedTp2Result: spec.resolvedTp2Result ?? null,
    hour,
    weekday: utcWeekday(entryTime),
    session: sessionForHour(hour),
    spreadPips: 0,
    costPips: 0,
    stopCostPips: 0,
  };
}

/** Trades from specs, numbered in the given order. */
export function makeTrades(specs: ReadonlyArray<Omit<TradeSpec, 'id'>>): Trade[] {
  return specs.map((spec, i) => makeTrade({ ...spec, id: i + 1 }));
}
