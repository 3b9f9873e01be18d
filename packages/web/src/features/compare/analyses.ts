/**
 * The comparator's list 'Mes analyses' (docs/product.md §2.2, §2.3, §2.4): the items of GET /api/compare/options
 * read whatever their field names, the search, the 1-to-4 selection and the `ids` preselection.
 */
import { strategyLabel } from '../../lib/catalogue.js';
import { formatIntegerFr, periodLabel, withFrenchPeriods } from '../../lib/format.js';
import { fieldText as str } from '../../api/fields.js';

/** Comparison: 1 to 4 analyses (docs/product.md §2.5, §2.9). */
export const MAX_COMPARED = 4;

export interface Analysis {
  id: string;
  label: string;
  pair: string;
  timeframe: string;
  strategy: string;
  period: string;
  trades: number | null;
  /** TP1 win rate as a fraction, when the server gives one. */
  winrateTp1: number | null;
}

type Item = Record<string, unknown>;

function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

function first<T>(...values: Array<T | null | '' | undefined>): T | null {
  for (const value of values) if (value !== null && value !== undefined && value !== '') return value;
  return null;
}

/** The list in an answer: an array, or an object whose `items` holds it (docs/product.md §2.7). */
export function answerItems(answer: unknown): Item[] {
  const list = Array.isArray(answer) ? answer : answer && typeof answer === 'object' ? (answer as { items?: unknown }).items : null;
  return Array.isArray(list) ? list.filter((item): item is Item => !!item && typeof item === 'object') : [];
}

/** One analysis item (docs/product.md §2.3 "Comparison analysis item"); null without an id. */
export function readAnalysis(item: Item): Analysis | null {
  const id = str(item.id);
  if (!id) return null;
  const strategyKey = str(item.strategy);
  const strategy = str(item.strategy_label) || (strategyKey ? strategyLabel(strategyKey) : '');
  const pair = str(item.pair) || str(item.symbol);
  const timeframe = str(item.timeframe).toUpperCase();
  const period = str(item.period);
  return {
    id,
    // The server's label ends with its ISO period; the page reads periods in French (docs/web.md "Numbers and labels").
    label: withFrenchPeriods(str(item.label) || [pair, timeframe, strategy, period].filter(Boolean).join(' · ')),
    pair,
    timeframe,
    strategy,
    period,
    trades: first(num(item.trades_count), num(item.trades)),
    winrateTp1: first(num(item.winrate_tp1), num(item.tp1_winrate), num(item.winrate)),
  };
}

export function readAnalyses(answer: unknown): Analysis[] {
  return answerItems(answer).map(readAnalysis).filter((a): a is Analysis => a !== null);
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The row's last line: the period in French and the trade count ('1–31 janvier 2023 · 1 004 trades'). */
export function analysisDetails(analysis: Pick<Analysis, 'period' | 'trades'>): string {
  const trades = analysis.trades === null ? '— trades' : `${formatIntegerFr(analysis.trades)} trade${Math.abs(analysis.trades) > 1 ? 's' : ''}`;
  return analysis.period ? `${periodLabel(analysis.period)} · ${trades}` : trades;
}

/**
 * The search box filters on label, pair and period (docs/product.md §2.2); every word must match.
 * The period is searched as the API writes it ('2023-01') and as the row shows it ('janvier').
 */
export function searchAnalyses(list: readonly Analysis[], query: string): Analysis[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...list];
  return list.filter((a) => {
    const haystack = fold(`${a.label} ${a.pair} ${a.period} ${periodLabel(a.period)}`);
    return words.every((word) => haystack.includes(word));
  });
}

/** Ticks or unticks one analysis; a fifth is refused (the selection stays as it was). */
export function toggleSelection(selected: readonly string[], id: string): string[] {
  if (selected.includes(id)) return selected.filter((s) => s !== id);
  if (selected.length >= MAX_COMPARED) return [...selected];
  return [...selected, id];
}

/** Once 4 are selected the other unticked rows are disabled (docs/product.md §2.4). */
export function isSelectionDisabled(selected: readonly string[], id: string): boolean {
  return selected.length >= MAX_COMPARED && !selected.includes(id);
}

/** The `ids` query parameter: comma-separated, known ids only, no repeats, at most 4 (docs/product.md §2.2). */
export function preselectedIds(param: string | null, known: readonly Analysis[]): string[] {
  if (!param) return [];
  const ids = new Set(known.map((a) => a.id));
  const chosen: string[] = [];
  for (const raw of param.split(',')) {
    const id = raw.trim();
    if (id && ids.has(id) && !chosen.includes(id)) chosen.push(id);
    if (chosen.length === MAX_COMPARED) break;
  }
  return chosen;
}
