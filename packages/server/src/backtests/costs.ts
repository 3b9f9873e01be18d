// Trading costs of a backtest request (docs/engine.md §13, docs/api.md): the fields checked here
// with French messages naming them (400), then core's rules (normalizeCosts) for what depends on
// the symbol, their refusals in French too. Absent or empty fields: no cost.
import { COST_LIMITS, CostError, normalizeCosts, type TradingCostsInput } from '@bt/core/costs';
import { findSymbol } from '@bt/core/catalogue';
import { badRequest } from '../app/errors.js';
import { MSG } from '../app/messages.js';
import type { Body } from '../app/input.js';
import { decimalOf } from './request.js';

/** 10000 → "10 000" (French grouping with a plain space, as the messages are compared as text). */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

export const COST_MESSAGES = {
  badNumber: (field: string, value: string, max: number) => `Valeur invalide pour ${field} : « ${value} » (un nombre entre 0 et ${grouped(max)}).`,
  badHours: (count: number) => `Valeur invalide pour spread_by_hour : 24 spreads attendus (en pips, heures UTC 0 à 23), ${count} reçu${count > 1 ? 's' : ''}.`,
  badHour: (hour: number, value: string) => `Valeur invalide pour spread_by_hour (heure ${hour}) : « ${value} » (un nombre de pips entre 0 et ${grouped(COST_LIMITS.pips)}).`,
  badFlag: (value: string) => `Valeur invalide pour spread_from_data : « ${value} » (true ou false).`,
  badPoint: (value: string) => `Valeur invalide pour spread_point_size : « ${value} » (un prix > 0, par exemple 0.00001).`,
  badCurrency: (value: string) => `Valeur invalide pour account_currency : « ${value} » (un code de devise de trois lettres, par exemple USD).`,
  bothCommissions: 'Indique la commission en pips (commission_pips) ou par lot (commission_per_lot), pas les deux.',
  perLotNotForex: (symbol: string) => `commission_per_lot : la commission par lot n’est convertie exactement que sur une paire forex du catalogue (${symbol} n’a pas de taille de lot connue) ; indique commission_pips.`,
  currencyMissing: (pair: string) => `Indique la devise du compte (account_currency) avec commission_per_lot : ${pair}.`,
  currencyOther: (currency: string, pair: string) => `account_currency : une commission en ${currency} demanderait un taux de change que bt n’a pas ; choisis ${pair}, ou indique commission_pips.`,
} as const;

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v)).slice(0, 40);
const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The field's one value: a list (`spread_pips=1&spread_pips=2`) is the API's one-value 400, never cut to its first element. */
function first(body: Body, name: string): unknown {
  const v = body[name];
  if (Array.isArray(v)) throw badRequest(MSG.singleValueExpected(name));
  return v;
}

/** A number from JSON or form text (decimal comma accepted), finite, from 0 to max; undefined when empty. */
function amount(body: Body, field: string, max: number): number | undefined {
  const v = first(body, field);
  if (isEmpty(v)) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? decimalOf(v) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > max) throw badRequest(COST_MESSAGES.badNumber(field, shown(v), max));
  return n;
}

function hours(body: Body): number[] | undefined {
  const v = body.spread_by_hour;
  if (isEmpty(v)) return undefined;
  // A JSON array, or form text of 24 values separated by spaces, semicolons or commas (decimals with a dot).
  // Text far longer than 24 values is counted, not split: an upload's 20 MB field split into 10
  // million strings took 386 MB and 2 s of the event loop to be refused.
  if (typeof v === 'string' && v.length > HOURS_TEXT_MAX) throw badRequest(COST_MESSAGES.badHours(countValues(v)));
  const parts: unknown[] = Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[\s,;]+/).filter((p) => p !== '') : [v];
  if (parts.length !== 24) throw badRequest(COST_MESSAGES.badHours(parts.length));
  return parts.map((p, h) => {
    // Decimals with a dot only: a comma separates the hours.
    const n = typeof p === 'number' ? p : typeof p === 'string' && !p.includes(',') ? decimalOf(p) : NaN;
    if (!Number.isFinite(n) || n < 0 || n > COST_LIMITS.pips) throw badRequest(COST_MESSAGES.badHour(h, shown(p)));
    return n;
  });
}

/** 24 values of at most 64 characters and their separators. */
const HOURS_TEXT_MAX = 24 * 66;

/**
 * The values of spread_by_hour's text, as the split above finds them (runs between commas,
 * semicolons and what `\s` matches), counted in place: 20 MB in about 150 ms, no allocation.
 */
function countValues(text: string): number {
  let count = 0;
  let inValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const separator =
      c === 44 || c === 59 || c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
    if (!separator && !inValue) count++;
    inValue = !separator;
  }
  return count;
}

function flag(body: Body): boolean | undefined {
  const v = first(body, 'spread_from_data');
  if (isEmpty(v)) return undefined;
  if (typeof v === 'boolean') return v;
  const t = String(v).trim().toLowerCase();
  if (['true', '1', 'on', 'oui', 'yes'].includes(t)) return true;
  if (['false', '0', 'off', 'non', 'no'].includes(t)) return false;
  throw badRequest(COST_MESSAGES.badFlag(shown(v)));
}

/**
 * The request's costs, checked: undefined when it asks for none. `symbol` decides whether a
 * per-lot commission can be converted exactly (forex pairs of the catalogue, account currency
 * the base or the quote).
 */
export function costsOf(body: Body, symbol: string): TradingCostsInput | undefined {
  const point = first(body, 'spread_point_size');
  const spreadPointSize = amount(body, 'spread_point_size', COST_LIMITS.pointSize);
  if (spreadPointSize === 0) throw badRequest(COST_MESSAGES.badPoint(shown(point)));
  const currency = first(body, 'account_currency');
  if (!isEmpty(currency) && (typeof currency !== 'string' || !/^\s*[A-Za-z]{3}\s*$/.test(currency))) throw badRequest(COST_MESSAGES.badCurrency(shown(currency)));
  const input: TradingCostsInput = {
    spreadPips: amount(body, 'spread_pips', COST_LIMITS.pips),
    spreadByHour: hours(body),
    spreadFromData: flag(body),
    spreadPointSize,
    commissionPips: amount(body, 'commission_pips', COST_LIMITS.pips),
    commissionPerLot: amount(body, 'commission_per_lot', COST_LIMITS.perLot),
    accountCurrency: isEmpty(currency) ? undefined : String(currency).trim(),
    slippagePips: amount(body, 'slippage_pips', COST_LIMITS.pips),
  };
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as TradingCostsInput;
  if (Object.keys(given).length === 0) return undefined;
  try {
    normalizeCosts(given, symbol);
  } catch (err) {
    throw err instanceof CostError ? badRequest(frenchCostError(err, symbol)) : err;
  }
  return given;
}

/** Core's refusals that depend on the symbol, in French (the number checks above come first). */
function frenchCostError(err: CostError, symbol: string): string {
  const found = findSymbol(symbol);
  const pair = found && found.assetClass === 'forex' ? `${found.symbol.slice(0, 3)} ou ${found.symbol.slice(3, 6)}` : '';
  if (err.field === 'commission_per_lot') return /not both/.test(err.expected) ? COST_MESSAGES.bothCommissions : COST_MESSAGES.perLotNotForex(symbol);
  if (err.field === 'account_currency') return err.value === 'missing' ? COST_MESSAGES.currencyMissing(pair) : COST_MESSAGES.currencyOther(String(err.value), pair);
  return `Valeur invalide pour ${err.field} : ${err.expected}.`;
}

/** The costs of a result in the API's names (snake_case). */
export function presentCosts(c: { spreadPips: number; spreadByHour: readonly number[] | null; spreadFromData: boolean; spreadPointSizeUsed: number | null; spreadDataCandles: number; commissionPips: number; commissionPerLot: number; accountCurrency: string | null; slippagePips: number }) {
  return {
    spread_pips: c.spreadPips,
    spread_by_hour: c.spreadByHour,
    spread_from_data: c.spreadFromData,
    spread_point_size: c.spreadPointSizeUsed,
    spread_data_candles: c.spreadDataCandles,
    commission_pips: c.commissionPips,
    commission_per_lot: c.commissionPerLot,
    account_currency: c.accountCurrency,
    slippage_pips: c.slippagePips,
  };
}
