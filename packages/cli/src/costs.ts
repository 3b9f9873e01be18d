// Trading-cost flags (docs/engine.md §13) shared by backtest, optimize and walk-forward: parsed
// now (a typo is a usage error before any file is read), checked by core's normalizeCosts, and
// `--spread typical` resolved once the symbol is known.
import { normalizeCosts, CostError, spreadColumnName, type TradingCostsInput } from '@bt/core/costs';
import type { Candles } from '@bt/core/candles';
import { findSymbol } from '@bt/core/catalogue';
import { quoted, RunError, UsageError } from './errors.js';
import { decimalNumber } from './options.js';

export interface CostFlags {
  spread?: string;
  spreadByHour?: string;
  spreadFromData?: boolean;
  spreadPoint?: string;
  commission?: string;
  commissionPerLot?: string;
  accountCurrency?: string;
  slippage?: string;
}

/** Core's field → the flag that sets it. */
const FLAGS: Readonly<Record<string, string>> = {
  spread_pips: '--spread',
  spread_by_hour: '--spread-by-hour',
  spread_from_data: '--spread-from-data',
  spread_point_size: '--spread-point',
  commission_pips: '--commission',
  commission_per_lot: '--commission-per-lot',
  account_currency: '--account-currency',
  slippage_pips: '--slippage',
};

/** A number ≥ 0 as typed (a decimal comma is accepted, as in the web form). */
function amount(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = String(text).trim();
  const value = decimalNumber(t);
  if (t === '' || !Number.isFinite(value) || value < 0) throw new UsageError(`invalid ${flag}: ${quoted(text)} (expected a number ≥ 0)`);
  return value;
}

/** The costs the flags ask for, before the symbol is known (`--spread typical` stays a word). */
export interface CostRequest {
  readonly input: TradingCostsInput;
  readonly typicalSpread: boolean;
}

export function parseCostFlags(flags: CostFlags): CostRequest {
  const typical = flags.spread !== undefined && flags.spread.trim().toLowerCase() === 'typical';
  let byHour: number[] | undefined;
  if (flags.spreadByHour !== undefined) {
    // Values are separated by commas, semicolons or spaces, so their decimals take a dot.
    const parts = flags.spreadByHour.split(/[\s,;]+/).filter((p) => p !== '');
    if (parts.length !== 24) throw new UsageError(`invalid --spread-by-hour: ${parts.length} values (expected 24 spreads in pips, for UTC hours 0 to 23, separated by commas)`);
    byHour = parts.map((p, h) => amount(`--spread-by-hour (hour ${h})`, p)!);
  }
  const input: TradingCostsInput = {
    ...(typical ? {} : { spreadPips: amount('--spread', flags.spread) }),
    spreadByHour: byHour,
    spreadFromData: flags.spreadFromData || undefined,
    spreadPointSize: amount('--spread-point', flags.spreadPoint),
    commissionPips: amount('--commission', flags.commission),
    commissionPerLot: amount('--commission-per-lot', flags.commissionPerLot),
    accountCurrency: flags.accountCurrency,
    slippagePips: amount('--slippage', flags.slippage),
  };
  const cleaned = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as TradingCostsInput;
  return { input: cleaned, typicalSpread: typical };
}

/**
 * The costs for a symbol: `--spread typical` becomes the catalogue's typical spread, and core's
 * rules check the whole (a refusal names the flag). undefined when no cost flag was given.
 */
export function costsFor(request: CostRequest, symbol: string): TradingCostsInput | undefined {
  let input = request.input;
  if (request.typicalSpread) {
    const typical = findSymbol(symbol)?.typicalSpreadPips ?? null;
    if (typical === null) throw new UsageError(`invalid --spread: "typical" (bt knows no typical spread for ${symbol}: give the spread in pips)`);
    input = { ...input, spreadPips: typical };
  }
  if (Object.keys(input).length === 0) return undefined;
  try {
    normalizeCosts(input, symbol);
  } catch (error) {
    if (error instanceof CostError) {
      const field = error.field.replace(/\[\d+\]$/, '');
      throw new UsageError(error.message.replace(`invalid ${error.field}:`, `invalid ${FLAGS[field] ?? error.field}:`));
    }
    throw error;
  }
  return input;
}

/**
 * With --spread-from-data, the file's Spread column is checked once the candles are read, before
 * any run: core refuses a negative spread inside each run, so `bt optimize` refused every
 * combination and ended with exit 0, and no message named the file.
 */
export function checkSpreadData(path: string, candles: Candles, costs: TradingCostsInput | undefined): void {
  if (!costs?.spreadFromData) return;
  const column = spreadColumnName(candles.extra);
  const values = column ? candles.extra[column] : undefined;
  if (!values) return;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === v && !(v >= 0 && v !== Infinity)) {
      throw new RunError(`${path}: the ${column} column holds ${v} at ${new Date(candles.time[i]).toISOString()} (candle ${i + 1}): --spread-from-data needs spreads ≥ 0 in points`);
    }
  }
}
