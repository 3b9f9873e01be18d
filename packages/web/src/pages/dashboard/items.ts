/**
 * Dashboard lists as plain logic (docs/product.md §2.2, §2.3, §2.9): reading the backtest and CSV items under
 * every alias the spec gives, the sorts, and the "Afficher plus" paging.
 */
import { HttpError, NetworkError } from '../../api/errors.js';
import { monthLabel } from '../../features/csv/library.js';
import { parseWinrate, periodLabel } from '../../lib/format.js';
import type { UserStrategy } from '../backtest/userStrategies.js';

/** Page sizes (docs/product.md §2.9): backtests 9 then +9, CSVs 10 then +10. */
export const BACKTESTS_PAGE = 9;
export const CSVS_PAGE = 10;

export const DASHBOARD_MESSAGES = {
  backtestsLoadError: 'Erreur de chargement des backtests',
  loadError: 'Erreur de chargement',
  unknownFolder: 'Dossier inconnu',
  downloadFailed: 'Téléchargement impossible.',
  renameFailed: 'Renommage impossible.',
  deleteFailed: 'Suppression impossible.',
  noteFailed: 'Sauvegarde de la note impossible.',
  noBacktests: "Aucun backtest pour l'instant.",
  noCsvs: "Aucun CSV téléchargé pour l'instant.",
  noStrategies: 'Aucune stratégie pour le moment.',
} as const;

/** 'Suppression impossible : {message or erreur serveur}' (docs/product.md §2.8). */
export function backtestDeleteMessage(detail: string | null | undefined): string {
  return `Suppression impossible : ${detail && detail.trim() ? detail.trim() : 'erreur serveur'}`;
}

/**
 * The message of a failed deletion: the server's detail, 'Erreur réseau.' when the request got no
 * answer (a cut is not the server's fault, and the run may well still be there), else 'erreur serveur'.
 */
export function backtestDeleteFailureMessage(failure: unknown): string {
  if (failure instanceof NetworkError) return backtestDeleteMessage(failure.message);
  return backtestDeleteMessage(failure instanceof HttpError ? failure.detail : null);
}

/** How many items "Afficher plus" shows after `clicks` clicks. */
export function pageCount(step: number, clicks: number, total: number): number {
  return Math.min(total, step * (clicks + 1));
}

function list(answer: unknown): unknown[] {
  if (Array.isArray(answer)) return answer;
  const items = answer && typeof answer === 'object' ? (answer as Record<string, unknown>).items : null;
  return Array.isArray(items) ? items : [];
}

function first(record: Record<string, unknown>, ...names: string[]): unknown {
  for (const name of names) {
    const value = record[name];
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

function str(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function num(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

export interface BacktestItem {
  id: string;
  folder: string | null;
  pair: string;
  timeframe: string;
  strategy: string;
  period: string;
  /** Percentage 0..100 (parseWinrate), null when unknown. */
  winrate: number | null;
  trades: number | null;
  xlsxFile: string | null;
  createdAt: string;
}

/** One backtest item, whatever aliases the server used (docs/product.md §2.3 "Backtest item"). */
export function parseBacktestItem(entry: unknown, index = 0): BacktestItem | null {
  if (!entry || typeof entry !== 'object') return null;
  const r = entry as Record<string, unknown>;
  const folder = str(first(r, 'folder')) || null;
  const xlsx = str(first(r, 'xlsx_filename')) || null;
  return {
    id: str(first(r, 'id', 'run_id', 'folder')) || `item-${index}`,
    folder,
    pair: str(first(r, 'symbol', 'pair')).toUpperCase(),
    timeframe: str(first(r, 'timeframe', 'tf')).toUpperCase(),
    strategy: str(first(r, 'display_name', 'strategy_display', 'strategy')),
    period: str(first(r, 'period', 'date_range')),
    winrate: parseWinrate(first(r, 'winrate', 'winrate_tp1', 'tp1_winrate')),
    trades: num(first(r, 'trades', 'total_trades', 'count')),
    xlsxFile: xlsx,
    createdAt: str(first(r, 'created_at')),
  };
}

/** GET /api/user/backtests: an array or {items}. */
export function parseBacktests(answer: unknown): BacktestItem[] {
  return list(answer).map(parseBacktestItem).filter((item): item is BacktestItem => item !== null);
}

/** A page of GET /api/user/backtests?sort&limit&offset: its items and the user's count of runs (null when not given). */
export function parseBacktestPage(answer: unknown): { items: BacktestItem[]; total: number | null } {
  const total = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>).total : null;
  return { items: parseBacktests(answer), total: typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : null };
}

/** The dashboard's orders, each the server's `sort` of the same name (docs/api.md): the server sorts and pages. */
export const BACKTEST_SORTS = [
  { id: 'winrate-desc', label: 'Win rate ↓' },
  { id: 'winrate-asc', label: 'Win rate ↑' },
  { id: 'trades-desc', label: 'Trades ↓' },
  { id: 'trades-asc', label: 'Trades ↑' },
  { id: 'pair-az', label: 'Paire A-Z' },
] as const;
export type BacktestSort = (typeof BACKTEST_SORTS)[number]['id'];

export const STRATEGY_SORTS = [
  { id: 'recent', label: 'Plus récentes' },
  { id: 'oldest', label: 'Plus anciennes' },
  { id: 'name-az', label: 'Nom A-Z' },
] as const;
export type StrategySort = (typeof STRATEGY_SORTS)[number]['id'];

export function sortStrategies<S extends UserStrategy>(items: readonly S[], sort: StrategySort): S[] {
  const list = [...items];
  const created = (s: S) => s.createdAt ?? 0;
  switch (sort) {
    case 'recent':
      return list.sort((a, b) => created(b) - created(a));
    case 'oldest':
      return list.sort((a, b) => created(a) - created(b));
    case 'name-az':
      return list.sort((a, b) => a.name.localeCompare(b.name, 'fr', { sensitivity: 'base' }));
  }
}

/** Rename rule (docs/product.md §2.4): an empty or unchanged name cancels; otherwise the trimmed name. */
export function renameTarget(current: string, typed: string): string | null {
  const name = typed.trim();
  return name === '' || name === current.trim() ? null : name;
}

export interface CsvItem {
  id: string;
  filename: string;
  path: string | null;
  pair: string;
  timeframe: string;
  period: string;
  kind: 'library' | 'extraction' | string;
  label: string;
  date: string;
  downloadUrl: string | null;
}

/** GET /api/user/csvs item (docs/product.md §2.3 "Downloaded item", "Extraction file"). */
export function parseCsvItem(entry: unknown, index = 0): CsvItem | null {
  if (!entry || typeof entry !== 'object') return null;
  const r = entry as Record<string, unknown>;
  const path = str(first(r, 'path', 'relative_path')) || null;
  const filename = str(first(r, 'filename', 'name')) || (path ? path.split('/').pop()! : '');
  if (!filename && !path) return null;
  const start = str(first(r, 'start_date'));
  const end = str(first(r, 'end_date'));
  const kind = str(first(r, 'kind', 'source')) || 'library';
  return {
    id: str(first(r, 'id')) || path || `csv-${index}`,
    filename,
    path,
    pair: str(first(r, 'symbol', 'pair')).toUpperCase(),
    timeframe: str(first(r, 'timeframe', 'tf')).toUpperCase(),
    period: str(first(r, 'period')) || (start && end ? `${start} → ${end}` : ''),
    kind: kind === 'live' ? 'extraction' : kind,
    label: str(first(r, 'label')),
    date: str(first(r, 'purchased_at', 'created_at', 'date')),
    downloadUrl: str(first(r, 'download_url')) || null,
  };
}

export function parseCsvs(answer: unknown): CsvItem[] {
  return list(answer).map(parseCsvItem).filter((item): item is CsvItem => item !== null);
}

/** Ledger reasons that are CSV downloads or extractions (GET /api/me purchase_history, docs/product.md §2.7 fallback). */
const CSV_HISTORY_TYPES = new Set(['csvDownload', 'csv_download', 'csv', 'download', 'extraction']);

/**
 * The fallback list from the current user's purchase history: its download entries, with the
 * path read from the ledger reference (`csv:{user}:{path}`, `extraction:{user}:{file}`).
 */
export function csvsFromPurchaseHistory(profile: unknown): CsvItem[] {
  const history = profile && typeof profile === 'object' ? (profile as Record<string, unknown>).purchase_history : null;
  if (!Array.isArray(history)) return [];
  const items: CsvItem[] = [];
  history.forEach((entry, index) => {
    if (!entry || typeof entry !== 'object') return;
    const r = entry as Record<string, unknown>;
    const type = str(first(r, 'type', 'kind'));
    if (!CSV_HISTORY_TYPES.has(type)) return;
    const reference = str(first(r, 'txid'));
    const match = /^(csv|extraction):[^:]*:(.+)$/.exec(reference);
    const path = match ? (match[1] === 'extraction' ? `live/${match[2]}` : match[2]) : null;
    const filename = path ? path.split('/').pop()! : str(first(r, 'label'));
    if (!filename) return;
    items.push({
      id: reference || `history-${index}`,
      filename,
      path,
      pair: '',
      timeframe: '',
      period: '',
      kind: type === 'extraction' ? 'extraction' : 'library',
      label: str(first(r, 'label')),
      date: str(first(r, 'date')),
      downloadUrl: null,
    });
  });
  return items;
}

/** A CSV's period as the tab shows it: a month `2023-01` as 'janvier 2023', a range `… → …` in French. */
export function csvPeriodLabel(period: string): string {
  return /^\d{4}-\d{2}$/.test(period.trim()) ? monthLabel(period.trim()) : periodLabel(period);
}

/** '2026-01-15T10:00:00.000Z' or seconds -> '15/01/2026'; '' when unreadable. */
export function frenchDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  const time = Number.isFinite(n) ? (n < 1e12 ? n * 1000 : n) : Date.parse(String(value));
  if (!Number.isFinite(time)) return '';
  return new Date(time).toLocaleDateString('fr-FR', { timeZone: 'UTC' });
}
