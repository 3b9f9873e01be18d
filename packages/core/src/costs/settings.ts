import { findSymbol } from '../catalogue/symbols.js';
import { COST_LIMITS, CostError, NO_COSTS, type CostSettings, type TradingCostsInput } from './types.js';

const FIELDS: Readonly<Record<keyof TradingCostsInput, string>> = {
  spreadPips: 'spread_pips',
  spreadByHour: 'spread_by_hour',
  spreadFromData: 'spread_from_data',
  spreadPointSize: 'spread_point_size',
  commissionPips: 'commission_pips',
  commissionPerLot: 'commission_per_lot',
  accountCurrency: 'account_currency',
  slippagePips: 'slippage_pips',
};

function amount(field: string, value: unknown, max: number, unit: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
    throw new CostError(field, value, `expected a number of ${unit} from 0 to ${max.toLocaleString('en-US')}`);
  }
  // -0 would be written "-0" in the Config rows and the JSON.
  return value === 0 ? 0 : value;
}

/** The account currency a per-lot commission can be converted from exactly, or the reason it cannot. */
function lotCurrencies(symbol: string): { base: string; quote: string } | null {
  const found = findSymbol(symbol);
  if (!found || found.assetClass !== 'forex') return null;
  return { base: found.symbol.slice(0, 3), quote: found.symbol.slice(3, 6) };
}

/**
 * Checks the costs of a request (absent: no costs) and fills the defaults. Throws a CostError
 * naming the field: `invalid spread_pips: -1 (expected a number of pips from 0 to 1,000)`.
 * `symbol` decides whether a per-lot commission can be expressed exactly in price (forex pairs
 * whose base or quote currency is the account currency).
 */
export function normalizeCosts(input: TradingCostsInput | undefined | null, symbol: string): CostSettings {
  if (input === undefined || input === null) return NO_COSTS;
  if (typeof input !== 'object' || Array.isArray(input)) throw new CostError('costs', JSON.stringify(input), 'expected an object of cost fields');
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(FIELDS, key)) throw new CostError('costs', key, `unknown cost field; expected ${Object.keys(FIELDS).join(', ')}`);
  }
  const spreadPips = amount('spread_pips', input.spreadPips, COST_LIMITS.pips, 'pips');
  let spreadByHour: number[] | null = null;
  if (input.spreadByHour !== undefined && input.spreadByHour !== null) {
    const hours = input.spreadByHour;
    if (!Array.isArray(hours) || hours.length !== 24) {
      throw new CostError('spread_by_hour', Array.isArray(hours) ? `${hours.length} values` : JSON.stringify(hours), 'expected 24 spreads in pips, one per UTC hour 0 to 23');
    }
    // Array.from visits holes (map skipped them: `new Array(24)` left 24 holes, read as no spread at
    // all), and an hour must say its spread: a null or missing one is not a silent 0.
    spreadByHour = Array.from(hours, (v: unknown, h) => {
      if (v === undefined || v === null) throw new CostError(`spread_by_hour[${h}]`, v, `expected a number of pips from 0 to ${COST_LIMITS.pips.toLocaleString('en-US')}`);
      return amount(`spread_by_hour[${h}]`, v, COST_LIMITS.pips, 'pips');
    });
  }
  const fromData = input.spreadFromData ?? false;
  if (typeof fromData !== 'boolean') throw new CostError('spread_from_data', JSON.stringify(fromData), 'expected true or false');
  let pointSize: number | null = null;
  if (input.spreadPointSize !== undefined && input.spreadPointSize !== null) {
    pointSize = amount('spread_point_size', input.spreadPointSize, COST_LIMITS.pointSize, 'price units');
    if (!(pointSize > 0)) throw new CostError('spread_point_size', input.spreadPointSize, 'expected a price > 0, e.g. 0.00001 for a 5-decimal EURUSD');
  }
  const commissionPips = amount('commission_pips', input.commissionPips, COST_LIMITS.pips, 'pips');
  const commissionPerLot = amount('commission_per_lot', input.commissionPerLot, COST_LIMITS.perLot, 'account currency per lot');
  let accountCurrency: string | null = null;
  let accountSide: CostSettings['accountSide'] = null;
  if (commissionPips > 0 && commissionPerLot > 0) throw new CostError('commission_per_lot', commissionPerLot, 'give the commission in pips or per lot, not both');
  if (input.accountCurrency !== undefined && input.accountCurrency !== null && input.accountCurrency !== '') {
    if (typeof input.accountCurrency !== 'string' || !/^[A-Za-z]{3}$/.test(input.accountCurrency.trim())) {
      throw new CostError('account_currency', input.accountCurrency, 'expected a three-letter currency code such as USD');
    }
    accountCurrency = input.accountCurrency.trim().toUpperCase();
  }
  if (commissionPerLot > 0) {
    const pair = lotCurrencies(symbol);
    if (!pair) {
      throw new CostError('commission_per_lot', commissionPerLot, `a commission per lot is converted exactly only on a forex pair of the catalogue (a lot of ${symbol.trim().toUpperCase()} has no size bt knows): give commission_pips`);
    }
    if (accountCurrency === null) throw new CostError('account_currency', 'missing', `required with commission_per_lot: ${pair.base} or ${pair.quote}`);
    if (accountCurrency !== pair.base && accountCurrency !== pair.quote) {
      throw new CostError('account_currency', accountCurrency, `a commission in ${accountCurrency} on ${pair.base}${pair.quote} needs a ${accountCurrency} exchange rate bt does not have: use ${pair.base} or ${pair.quote}, or give commission_pips`);
    }
    accountSide = accountCurrency === pair.quote ? 'quote' : 'base';
  } else accountCurrency = null;
  const slippagePips = amount('slippage_pips', input.slippagePips, COST_LIMITS.pips, 'pips');
  return { spreadPips, spreadByHour, spreadFromData: fromData, spreadPointSize: pointSize, commissionPips, commissionPerLot, accountCurrency, accountSide, slippagePips };
}

/** Whether any cost applies. */
export function hasCosts(c: CostSettings): boolean {
  return c.spreadPips > 0 || c.spreadFromData || (c.spreadByHour !== null && c.spreadByHour.some((v) => v > 0)) || c.commissionPips > 0 || c.commissionPerLot > 0 || c.slippagePips > 0;
}

/** The request field of a TradingCostsInput key (snake_case). */
export function costField(key: keyof TradingCostsInput): string {
  return FIELDS[key];
}
