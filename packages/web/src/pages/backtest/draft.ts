/**
 * The backtest form kept across the connection prompt (docs/web.md "Backtest screen"): a visitor
 * who fills the form, runs it, and leaves through 'Créer un compte' or 'Se connecter' finds the
 * same pair, strategy, dates, stops, parameters and costs back on /backtest once signed in. Kept
 * in the tab's sessionStorage for an hour, given back once. The chosen file of a custom run cannot be
 * kept (a browser never restores a file field): it is chosen again.
 */
import type { BacktestFormState } from './form.js';

export const DRAFT_STORAGE_KEY = 'btBacktestDraft_v1';
export const DRAFT_MAX_AGE_MS = 60 * 60 * 1000;

export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Stores the form (without its file) before the visitor leaves for the login page. */
export function saveDraft(storage: DraftStorage, form: BacktestFormState, now: number): void {
  const { file: _file, ...kept } = form;
  try {
    storage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ savedAt: now, form: kept }));
  } catch {
    // Storage refused (quota, private mode): the form is simply not kept.
  }
}

function sameType(value: unknown, like: unknown): boolean {
  return typeof value === typeof like && value !== null && !Array.isArray(value);
}

/**
 * The stored form over `initial`, field by field: a field of another type than the form's (an
 * older version, a hand edit) keeps the initial value; parameters keep only text and booleans.
 */
export function mergeDraft(initial: BacktestFormState, raw: unknown): BacktestFormState {
  if (!raw || typeof raw !== 'object') return initial;
  const stored = raw as Record<string, unknown>;
  const merged: BacktestFormState = { ...initial, costs: { ...initial.costs }, params: {} };
  for (const key of Object.keys(initial) as (keyof BacktestFormState)[]) {
    if (key === 'file' || key === 'params' || key === 'costs') continue;
    if (sameType(stored[key], initial[key])) (merged as unknown as Record<string, unknown>)[key] = stored[key];
  }
  if (merged.mode !== 'official' && merged.mode !== 'custom') merged.mode = initial.mode;
  if (merged.source !== 'official' && merged.source !== 'gpt') merged.source = initial.source;
  const costs = stored.costs && typeof stored.costs === 'object' ? (stored.costs as Record<string, unknown>) : {};
  for (const key of Object.keys(initial.costs) as (keyof BacktestFormState['costs'])[]) {
    if (sameType(costs[key], initial.costs[key])) (merged.costs as unknown as Record<string, unknown>)[key] = costs[key];
  }
  const params = stored.params && typeof stored.params === 'object' && !Array.isArray(stored.params) ? (stored.params as Record<string, unknown>) : {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' || typeof value === 'boolean') merged.params[name] = value;
  }
  return merged;
}

/**
 * The kept form over `initial`; older than an hour, ignored. Reading leaves it in place (a state
 * initialiser may run twice): the page removes it once shown (`clearDraft`).
 */
export function readDraft(storage: DraftStorage, initial: BacktestFormState, now: number): BacktestFormState {
  let text: string | null = null;
  try {
    text = storage.getItem(DRAFT_STORAGE_KEY);
  } catch {
    return initial;
  }
  if (!text) return initial;
  try {
    const saved = JSON.parse(text) as { savedAt?: unknown; form?: unknown };
    if (typeof saved.savedAt !== 'number' || now - saved.savedAt > DRAFT_MAX_AGE_MS || now < saved.savedAt) return initial;
    return mergeDraft(initial, saved.form);
  } catch {
    return initial;
  }
}

/** Forgets the kept form: it is given back once. */
export function clearDraft(storage: DraftStorage): void {
  try {
    storage.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Nothing to forget where storage is refused.
  }
}
