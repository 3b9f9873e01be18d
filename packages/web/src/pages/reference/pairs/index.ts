/**
 * Every pair sheet of the reference page, keyed by catalogue symbol. The completeness test
 * (test/reference-sheets.test.ts) walks the catalogue as it is, so an instrument added there
 * without a sheet here fails it.
 */
import { COMMODITY_SHEETS } from './commodities.js';
import { CRYPTO_SHEETS } from './crypto.js';
import { FOREX_SHEETS } from './forex.js';
import { INDEX_SHEETS } from './indices.js';
import type { PairSheet } from './types.js';

export type { PairSheet } from './types.js';

export const PAIR_SHEETS: Readonly<Record<string, PairSheet>> = { ...FOREX_SHEETS, ...COMMODITY_SHEETS, ...INDEX_SHEETS, ...CRYPTO_SHEETS };

export function pairSheet(symbol: string): PairSheet | undefined {
  return Object.hasOwn(PAIR_SHEETS, symbol) ? PAIR_SHEETS[symbol] : undefined;
}

/** The parts a sheet lacks ('fiche' when there is none): empty for a complete sheet. */
export function sheetGaps(sheet: PairSheet | undefined): string[] {
  if (!sheet) return ['fiche'];
  const gaps: string[] = [];
  for (const field of ['summary', 'kind', 'pipValue', 'sessions', 'volatility'] as const) if (!sheet[field].trim()) gaps.push(field);
  if (sheet.notes.length === 0 || sheet.notes.some((n) => !n.trim())) gaps.push('notes');
  if (sheet.advice.length === 0 || sheet.advice.some((a) => !a.trim())) gaps.push('advice');
  return gaps;
}
