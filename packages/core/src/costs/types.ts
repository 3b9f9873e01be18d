/**
 * Trading costs of a run (docs/engine.md §13 "Trading costs"): spread, commission, slippage.
 * Candles are bid prices; a buy fills at the ask (bid + spread) and its stop and targets are
 * judged on the bid; a sell fills at the bid and its stop and targets are judged on the ask.
 */
export interface TradingCostsInput {
  /** Spread in pips, the same on every candle (unless `spreadByHour` or the data's column say otherwise). */
  readonly spreadPips?: number;
  /** 24 spreads in pips, by UTC hour of the candle's opening time; replaces `spreadPips`. */
  readonly spreadByHour?: readonly number[];
  /** Read the candles' `Spread` column (MetaTrader points) where it holds a value; other candles take the above. */
  readonly spreadFromData?: boolean;
  /** Price of one point of the `Spread` column; default: a tenth of a pip (MetaTrader's point for fractional-pip quotes). */
  readonly spreadPointSize?: number;
  /** Commission per trade, round trip, in pips. */
  readonly commissionPips?: number;
  /** Commission per trade, round trip, in account currency per lot (forex: 100,000 units of the base currency). */
  readonly commissionPerLot?: number;
  /** The account currency, with `commissionPerLot`: the pair's base or quote currency. */
  readonly accountCurrency?: string;
  /** Slippage in pips against the trade on market entries (signal families) and on stops. */
  readonly slippagePips?: number;
}

/** Costs after checking, every field present (0 / null / false when not given). */
export interface CostSettings {
  readonly spreadPips: number;
  readonly spreadByHour: readonly number[] | null;
  readonly spreadFromData: boolean;
  readonly spreadPointSize: number | null;
  readonly commissionPips: number;
  readonly commissionPerLot: number;
  readonly accountCurrency: string | null;
  /** Which currency of the pair the account currency is (per-lot commission only). */
  readonly accountSide: 'base' | 'quote' | null;
  readonly slippagePips: number;
}

/** Largest accepted values: pips (spread, commission, slippage) and account currency per lot. */
export const COST_LIMITS = { pips: 1000, perLot: 10_000, pointSize: 1000 } as const;

/** Units of the base currency in one forex lot. */
export const FOREX_LOT_UNITS = 100_000;

export const NO_COSTS: CostSettings = {
  spreadPips: 0,
  spreadByHour: null,
  spreadFromData: false,
  spreadPointSize: null,
  commissionPips: 0,
  commissionPerLot: 0,
  accountCurrency: null,
  accountSide: null,
  slippagePips: 0,
};

/** A cost refused, with the request field it came from (snake_case, as the API and Config name it). */
export class CostError extends Error {
  constructor(
    readonly field: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`invalid ${field}: ${typeof value === 'string' ? JSON.stringify(value) : Array.isArray(value) ? `[${value.join(',')}]` : String(value)} (${expected})`);
    this.name = 'CostError';
  }
}
