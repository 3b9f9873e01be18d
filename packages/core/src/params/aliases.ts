import { findParam } from '../catalogue/params.js';

/** Other names of parameters (docs/product.md §2.3, docs/architecture.md §2), mapped to the canonical name. */
export const PARAM_ALIASES: Readonly<Record<string, string>> = {
  min_wait_candle: 'min_wait_candles',
  max_wait_candle: 'max_wait_candles',
  RSI: 'rsi_key',
  ema1: 'ema_fast',
  ema2: 'ema_slow',
  Datetime: 'time_key',
};

const lowerAliases = new Map(Object.entries(PARAM_ALIASES).map(([alias, name]) => [alias.toLowerCase(), name]));

/**
 * The canonical name for a parameter name as given: exact aliases and names first, then the same
 * ignoring case and surrounding spaces (MIN_WAIT_CANDLES, rsi, datetime). A name that is neither
 * comes back trimmed, unchanged, for the caller to report.
 */
export function canonicalParamName(name: string): string {
  const trimmed = String(name).trim();
  if (Object.hasOwn(PARAM_ALIASES, trimmed)) return PARAM_ALIASES[trimmed];
  if (findParam(trimmed)) return trimmed;
  const lower = trimmed.toLowerCase();
  return lowerAliases.get(lower) ?? (findParam(lower) ? lower : trimmed);
}
