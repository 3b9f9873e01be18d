import { findSymbol, TIMEFRAMES, type TimeframeKey } from '@bt/core/catalogue';

const TF = TIMEFRAMES.map((t) => t.key).join('|');
const NAME = new RegExp(`^(.+)_(${TF})(?:_(\\d{4})-(0[1-9]|1[0-2]))?\\.csv$`, 'i');

export type EntryName =
  | { ok: true; symbol: string; timeframe: TimeframeKey; month: string | null; base: string }
  | { ok: false; reason: 'not_csv' | 'pattern' | 'symbol'; base: string; symbol?: string };

/**
 * What a CSV of an import archive is, from its file name (folders inside the archive are
 * ignored): `{SYMBOL}_{TF}_{YYYY-MM}.csv`, the library's own name, or `{SYMBOL}_{TF}.csv` for
 * the target month. The symbol must be in the catalogue (any usual spelling, written back in its
 * canonical form); the timeframe is one of the catalogue's.
 */
export function parseEntryName(name: string): EntryName {
  const base = name.split('/').pop() ?? name;
  if (!/\.csv$/i.test(base)) return { ok: false, reason: 'not_csv', base };
  const match = NAME.exec(base);
  if (!match) return { ok: false, reason: 'pattern', base };
  const symbol = findSymbol(match[1]);
  if (!symbol) return { ok: false, reason: 'symbol', base, symbol: match[1] };
  const timeframe = match[2].toUpperCase() as TimeframeKey;
  return { ok: true, symbol: symbol.symbol, timeframe, month: match[3] ? `${match[3]}-${match[4]}` : null, base };
}
