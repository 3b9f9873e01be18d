/**
 * The trading-cost fields of the backtest form (docs/engine.md §13, docs/web.md): their state,
 * the spread pre-filled from the catalogue's typical spread, the checks before sending (the
 * server checks again), and the request fields. Commission per lot stays an API/CLI field: the
 * form takes the commission in pips.
 */
import { COST_LIMITS } from '@bt/core/costs';
import { findSymbol } from '@bt/core/catalogue';

export interface CostFormState {
  spread: string;
  /** The user typed a spread: a symbol change no longer replaces it. */
  spreadEdited: boolean;
  /** 24 values, or empty. */
  spreadByHour: string;
  /** Read the file's Spread column where it has a value (custom files). */
  spreadFromData: boolean;
  commission: string;
  slippage: string;
}

export const COST_FORM_MESSAGES = {
  badAmount: (label: string) => `${label} : un nombre de pips entre 0 et ${COST_LIMITS.pips}.`,
  badHours: (count: number) => `Spread par heure : 24 valeurs attendues (heures UTC 0 à 23, séparées par des espaces ou des points-virgules), ${count} saisie${count > 1 ? 's' : ''}.`,
} as const;

/** The typical spread of a symbol as the form shows it ('' when bt knows none). */
export function typicalSpreadText(symbol: string): string {
  const typical = findSymbol(symbol)?.typicalSpreadPips ?? null;
  return typical === null ? '' : String(typical);
}

export function initialCosts(symbol = ''): CostFormState {
  return { spread: typicalSpreadText(symbol), spreadEdited: false, spreadByHour: '', spreadFromData: true, commission: '', slippage: '' };
}

/** A symbol change: the typical spread of the new symbol, unless the user typed one. */
export function costsForSymbol(costs: CostFormState, symbol: string): CostFormState {
  return costs.spreadEdited ? costs : { ...costs, spread: typicalSpreadText(symbol) };
}

function amount(text: string): number | null | 'bad' {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 && n <= COST_LIMITS.pips ? n : 'bad';
}

function hours(text: string): number[] | null | { count: number } {
  // Commas may be decimal commas here (French input): values are separated by spaces or semicolons.
  const parts = text.split(/[\s;]+/).filter((p) => p !== '');
  if (parts.length === 0) return null;
  if (parts.length !== 24) return { count: parts.length };
  const values = parts.map((p) => amount(p));
  return values.some((v) => v === 'bad' || v === null) ? { count: -1 } : (values as number[]);
}

/** The first problem of the cost fields, or null. */
export function costsError(costs: CostFormState): string | null {
  for (const [label, text] of [['Spread', costs.spread], ['Commission', costs.commission], ['Slippage', costs.slippage]] as const) {
    if (amount(text) === 'bad') return COST_FORM_MESSAGES.badAmount(label);
  }
  const h = hours(costs.spreadByHour);
  if (h && !Array.isArray(h)) return h.count < 0 ? COST_FORM_MESSAGES.badAmount('Spread par heure') : COST_FORM_MESSAGES.badHours(h.count);
  return null;
}

/** The JSON fields of run_backtest (empty fields left out: no cost). */
export function costRequest(costs: CostFormState, custom: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (name: string, text: string) => {
    const v = amount(text);
    if (typeof v === 'number') out[name] = v;
  };
  put('spread_pips', costs.spread);
  const h = hours(costs.spreadByHour);
  if (Array.isArray(h)) out.spread_by_hour = h;
  if (custom && costs.spreadFromData) out.spread_from_data = true;
  put('commission_pips', costs.commission);
  put('slippage_pips', costs.slippage);
  return out;
}

/** The same as multipart text fields (the upload). */
export function costFormFields(costs: CostFormState): Record<string, string> {
  return Object.fromEntries(Object.entries(costRequest(costs, true)).map(([k, v]) => [k, Array.isArray(v) ? v.join(' ') : String(v)]));
}
