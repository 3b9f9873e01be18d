import { showValue } from '../params/errors.js';
import { parseNumberText } from '../params/numbers.js';
import { PIP_SIZE_MAX, PIP_SIZE_MIN } from '../simulate/levels.js';
import type { AssetClass, SymbolDefinition } from './types.js';

/**
 * The instruments of the official data (docs/product.md §2.3, docs/product.md §3.2). Pip sizes follow the spec where it
 * gives one (0.0001 forex, 0.01 JPY pairs, 0.1 gold, 1 indices); for the other commodities the
 * pip is one minimum tick of the reference futures contract, and crypto uses a pip close to
 * gold's relative size. docs/catalogue.md gives the reason line by line.
 *
 * Typical spreads: FXCM UK's published average spreads (docs/catalogue.md "Typical spreads" gives
 * the page); forex in pips, the other instruments in price units (converted to bt's pips).
 */
function fx(base: string, quote: string, typicalSpreadPips: number): SymbolDefinition {
  return {
    symbol: base + quote,
    label: `${base}/${quote}`,
    assetClass: 'forex',
    pipSize: base === 'JPY' || quote === 'JPY' ? 0.01 : 0.0001,
    typicalSpreadPips,
  };
}

/** `spread` in price units as the source publishes it (converted to pips here), null when unknown. */
function sym(symbol: string, label: string, assetClass: AssetClass, pipSize: number, spread: number | null = null): SymbolDefinition {
  return { symbol, label, assetClass, pipSize, typicalSpreadPips: spread === null ? null : Math.round((spread / pipSize) * 100) / 100 };
}

export const SYMBOLS: readonly SymbolDefinition[] = [
  // Forex majors
  fx('EUR', 'USD', 1.3), fx('GBP', 'USD', 1.8), fx('USD', 'JPY', 1.4), fx('USD', 'CHF', 1.7),
  fx('AUD', 'USD', 1.8), fx('USD', 'CAD', 2.2), fx('NZD', 'USD', 2.0),
  // Forex minors (crosses without the dollar or the yen)
  fx('EUR', 'GBP', 2.3), fx('EUR', 'CHF', 2.5), fx('EUR', 'AUD', 2.6), fx('EUR', 'CAD', 3.0), fx('EUR', 'NZD', 4.1),
  fx('GBP', 'CHF', 3.5), fx('GBP', 'AUD', 4.4), fx('GBP', 'CAD', 4.3), fx('GBP', 'NZD', 5.8),
  fx('AUD', 'CAD', 2.8), fx('AUD', 'CHF', 3.4), fx('AUD', 'NZD', 3.6), fx('CAD', 'CHF', 3.4),
  fx('NZD', 'CAD', 4.6), fx('NZD', 'CHF', 4.5),
  // JPY crosses
  fx('EUR', 'JPY', 2.1), fx('GBP', 'JPY', 2.8), fx('AUD', 'JPY', 2.2), fx('CAD', 'JPY', 2.5), fx('CHF', 'JPY', 3.0), fx('NZD', 'JPY', 2.3),
  // Metals (USD per troy ounce; copper USD per pound)
  sym('XAUUSD', 'Or', 'metal', 0.1, 0.41),
  sym('XAGUSD', 'Argent', 'metal', 0.005, 0.05),
  sym('XPTUSD', 'Platine', 'metal', 0.1),
  sym('XPDUSD', 'Palladium', 'metal', 0.1),
  sym('COPPER', 'Cuivre', 'metal', 0.0005, 0.003),
  // Energy
  sym('WTI', 'Pétrole WTI', 'energy', 0.01, 0.04),
  sym('BRENT', 'Pétrole Brent', 'energy', 0.01, 0.04),
  sym('NATGAS', 'Gaz naturel', 'energy', 0.001, 0.01),
  sym('GASOLINE', 'Essence RBOB', 'energy', 0.0001),
  // Agricultural futures (grains in US cents per bushel, softs in cents per pound, cocoa in USD per tonne)
  sym('CORN', 'Maïs', 'agriculture', 0.25),
  sym('WHEAT', 'Blé', 'agriculture', 0.25),
  sym('SOYBEAN', 'Soja', 'agriculture', 0.25),
  sym('SUGAR', 'Sucre', 'agriculture', 0.01),
  sym('COFFEE', 'Café', 'agriculture', 0.05),
  sym('COCOA', 'Cacao', 'agriculture', 1),
  sym('COTTON', 'Coton', 'agriculture', 0.01),
  // World indices (index points)
  sym('US500', 'S&P 500', 'index', 1, 0.52),
  sym('US30', 'Dow Jones 30', 'index', 1, 2.26),
  sym('NAS100', 'Nasdaq 100', 'index', 1, 1.3),
  sym('GER40', 'DAX 40', 'index', 1, 2.11),
  sym('UK100', 'FTSE 100', 'index', 1, 1.05),
  sym('FRA40', 'CAC 40', 'index', 1, 1.09),
  sym('EU50', 'Euro Stoxx 50', 'index', 1, 1.74),
  sym('JPN225', 'Nikkei 225', 'index', 1, 8.66),
  sym('AUS200', 'ASX 200', 'index', 1, 1.76),
  // Crypto (USD)
  sym('BTC-USD', 'Bitcoin', 'crypto', 1, 35.12),
  sym('ETH-USD', 'Ethereum', 'crypto', 0.1, 1.21),
  // Crypto crosses with real data in fixtures/ (freqtrade): quoted in bitcoin, ether and tether;
  // no published typical spread (costs must be given)
  sym('ETH-BTC', 'Ethereum/Bitcoin', 'crypto', 0.000001),
  sym('XRP-ETH', 'XRP/Ethereum', 'crypto', 0.0000001),
  sym('XRP-USDT', 'XRP/Tether', 'crypto', 0.0001),
];

/** Other names brokers and data vendors use for the same instruments (compact form, see compactSymbol). */
export const SYMBOL_ALIASES: Readonly<Record<string, string>> = {
  GOLD: 'XAUUSD',
  SILVER: 'XAGUSD',
  XCUUSD: 'COPPER',
  USOIL: 'WTI',
  XTIUSD: 'WTI',
  UKOIL: 'BRENT',
  XBRUSD: 'BRENT',
  XNGUSD: 'NATGAS',
  SPX500: 'US500',
  DE40: 'GER40',
  JP225: 'JPN225',
  USTEC: 'NAS100',
  // Dukascopy's instrument names (the files of fixtures/market are named after them)
  USA500IDXUSD: 'US500',
  USATECHIDXUSD: 'NAS100',
  USA30IDXUSD: 'US30',
  DEUIDXEUR: 'GER40',
  GBRIDXGBP: 'UK100',
  BRENTCMDUSD: 'BRENT',
};

/** Upper case without spaces or the separators / - _ : "eur/usd" and "EUR_USD" both give EURUSD. */
export function compactSymbol(value: string): string {
  return String(value).trim().toUpperCase().replace(/[\s/_-]+/g, '');
}

const byCompact = new Map<string, SymbolDefinition>();
for (const s of SYMBOLS) byCompact.set(compactSymbol(s.symbol), s);
for (const [alias, symbol] of Object.entries(SYMBOL_ALIASES)) byCompact.set(alias, byCompact.get(symbol)!);

/** The catalogue entry for a symbol written any usual way (case, separators, listed aliases), or undefined. */
export function findSymbol(value: string): SymbolDefinition | undefined {
  return byCompact.get(compactSymbol(value));
}

/** The catalogue entry; throws `invalid symbol: X` for an instrument the catalogue does not list. */
export function getSymbol(value: string): SymbolDefinition {
  const found = findSymbol(value);
  if (!found) throw new Error(`invalid symbol: ${JSON.stringify(value)} (not in the catalogue)`);
  return found;
}

/**
 * The canonical spelling of a catalogue symbol (eur/usd → EURUSD, BTCUSD → BTC-USD); an unknown
 * symbol (custom CSV) comes back trimmed and upper-cased, as the backtest form types it.
 */
export function normalizeSymbol(value: string): string {
  return findSymbol(value)?.symbol ?? String(value).trim().toUpperCase();
}

/** The pip sizes bt runs (simulate/levels.ts says why). */
export { PIP_SIZE_MAX, PIP_SIZE_MIN };

/** The range in words, for messages (1e-9 written out). */
export const PIP_SIZE_EXPECTED = 'a number from 0.000000001 to 10000';

/** Whether `value` is a pip size bt runs (PIP_SIZE_MIN to PIP_SIZE_MAX). */
export const pipSizeInRange = (value: number) => Number.isFinite(value) && value >= PIP_SIZE_MIN && value <= PIP_SIZE_MAX;

/**
 * A pip size as given by a person or a file: a number, or a decimal text (core's parseNumberText:
 * spaces around, a decimal comma, an exponent; not `0x10`, `Infinity` or empty, which `Number()`
 * reads as 16, Infinity and 0). Undefined when it is not one, or out of range.
 */
export function parsePipSize(value: number | string): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? parseNumberText(value) : undefined;
  return n !== undefined && pipSizeInRange(n) ? n : undefined;
}

/**
 * The price distance of one pip. An explicit `override` wins (custom data, unknown symbols) and is
 * checked by parsePipSize, so the CLI, the server and the web app share one rule; without it an
 * instrument missing from the catalogue is an error that names it.
 */
export function pipSize(symbol: string, override?: number | string | null): number {
  if (override !== undefined && override !== null) {
    const value = parsePipSize(override);
    if (value === undefined) {
      throw new Error(`invalid pip size: ${showValue(override)} (expected ${PIP_SIZE_EXPECTED})`);
    }
    return value;
  }
  const found = findSymbol(symbol);
  if (!found) {
    throw new Error(`invalid symbol: ${JSON.stringify(symbol)} (not in the catalogue, so its pip size is unknown: give an explicit pip size)`);
  }
  return found.pipSize;
}

export interface SymbolOption {
  readonly value: string;
  readonly label: string;
}

/** Options of the pair filters (docs/product.md §2.3): 'ALL' labelled 'Toutes', then every symbol sorted. */
export function symbolFilterOptions(): SymbolOption[] {
  const sorted = [...SYMBOLS].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return [{ value: 'ALL', label: 'Toutes' }, ...sorted.map((s) => ({ value: s.symbol, label: s.label }))];
}
