/**
 * The CSV shop's plain rules (docs/product.md §2.2, §2.3, §2.5, §2.8, §2.9): library files read whatever their
 * field names, the pair / timeframe / month filters, paging with 'show more', the recent
 * extractions, the extraction form's checks and the messages of its failures.
 */
import { LIBRARY_TIMEFRAMES, symbolFilterOptions, type SymbolOption } from '@bt/core/catalogue';
import { formatDayMonthFr, formatIntegerFr } from '@bt/core/format';
import { isNonJsonAnswer } from '../../api/client.js';
import { HttpError } from '../../api/errors.js';
import { formatSize } from '../admin/format.js';
import { fieldNumber as num, fieldText as str } from '../../api/fields.js';

export const ALL = 'ALL';

export interface LibraryFile {
  symbol: string;
  label: string;
  timeframe: string;
  name: string;
  path: string;
  /** 'YYYY-MM' ('' when unknown). */
  month: string;
  rows: number | null;
  size: number | null;
  owned: boolean;
  /** The server says the month is not fully covered (docs/api.md "GET /api/list_csv_library"). */
  partial: boolean;
  /** ISO opening times of the first and last candle ('' when unknown). */
  firstCandle: string;
  lastCandle: string;
}

export interface OwnedCsv {
  name: string;
  path: string;
  symbol: string;
  timeframe: string;
  period: string;
  startDate: string;
  endDate: string;
  createdAt: string;
  live: boolean;
  label: string;
  rows: number | null;
}

type Item = Record<string, unknown>;


function listOf(answer: unknown, field: 'files' | 'items'): Item[] {
  const list = Array.isArray(answer) ? answer : answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[field] : null;
  return Array.isArray(list) ? list.filter((f): f is Item => !!f && typeof f === 'object') : [];
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM' from period, year + month, or the {symbol}_{tf}_{YYYY-MM}.csv name. */
export function fileMonth(item: Item): string {
  const period = str(item.period);
  if (/^\d{4}-\d{2}$/.test(period)) return period;
  const year = Number(item.year);
  const month = Number(item.month);
  if (Number.isInteger(year) && year > 0 && Number.isInteger(month) && month >= 1 && month <= 12) return `${year}-${pad2(month)}`;
  const fromName = /_(\d{4}-\d{2})\.csv$/i.exec(str(item.name) || str(item.path));
  return fromName ? fromName[1] : '';
}

/** M1, D and D1 are never listed (docs/product.md §2.9). */
export function isLibraryTimeframe(timeframe: string): boolean {
  return (LIBRARY_TIMEFRAMES as readonly string[]).includes(timeframe);
}

export function readLibrary(answer: unknown): LibraryFile[] {
  return listOf(answer, 'files')
    .map((item) => {
      const symbol = (str(item.pair) || str(item.symbol)).toUpperCase();
      const timeframe = (str(item.timeframe) || str(item.tf)).toUpperCase();
      const path = str(item.path) || str(item.relative_path);
      return {
        symbol,
        label: str(item.label) || symbol,
        timeframe,
        name: str(item.name) || path.split('/').pop() || '',
        path,
        month: fileMonth(item),
        rows: num(item.rows),
        size: num(item.size),
        owned: item.owned === true,
        partial: item.partial === true,
        firstCandle: str(item.first_candle),
        lastCandle: str(item.last_candle),
      };
    })
    .filter((f) => f.symbol && f.path && isLibraryTimeframe(f.timeframe));
}

export interface LibraryFilter {
  symbol: string;
  timeframe: string;
  month: string;
}

export const NO_FILTER: LibraryFilter = { symbol: ALL, timeframe: ALL, month: ALL };

/** Newest month first, then pair A-Z, then timeframe from H4 down to M5. */
export function sortLibrary(files: readonly LibraryFile[]): LibraryFile[] {
  const rank = (tf: string) => (LIBRARY_TIMEFRAMES as readonly string[]).indexOf(tf);
  return [...files].sort((a, b) => b.month.localeCompare(a.month) || a.symbol.localeCompare(b.symbol) || rank(a.timeframe) - rank(b.timeframe));
}

export function filterLibrary(files: readonly LibraryFile[], filter: LibraryFilter): LibraryFile[] {
  return sortLibrary(
    files.filter(
      (f) =>
        (filter.symbol === ALL || f.symbol === filter.symbol) &&
        (filter.timeframe === ALL || f.timeframe === filter.timeframe) &&
        (filter.month === ALL || f.month === filter.month),
    ),
  );
}

/** The pair filter: 'Toutes' then every catalogue symbol sorted (docs/product.md §2.3). */
export function pairOptions(): SymbolOption[] {
  return symbolFilterOptions();
}

export function timeframeOptions(): Array<{ value: string; label: string }> {
  return [{ value: ALL, label: 'Toutes' }, ...LIBRARY_TIMEFRAMES.map((tf) => ({ value: tf, label: tf }))];
}

const MONTH_FORMAT = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function monthLabel(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  return MONTH_FORMAT.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

/** The line of a partial month: which days it covers, and its candles ('' for a whole month). */
export function partialMonthText(file: Pick<LibraryFile, 'partial' | 'firstCandle' | 'lastCandle' | 'rows'>): string {
  if (!file.partial) return '';
  const first = Date.parse(file.firstCandle);
  const last = Date.parse(file.lastCandle);
  const days = Number.isFinite(first) && Number.isFinite(last) ? ` : du ${formatDayMonthFr(first)} au ${formatDayMonthFr(last)}` : '';
  const rows = file.rows !== null ? ` (${file.rows.toLocaleString('fr-FR')} bougies)` : '';
  return `Mois partiel${days}${rows}`;
}

/** The months the files offer (under the other two filters), newest first. */
export function monthOptions(files: readonly LibraryFile[], filter: Pick<LibraryFilter, 'symbol' | 'timeframe'>): Array<{ value: string; label: string }> {
  const months = new Set(
    files.filter((f) => (filter.symbol === ALL || f.symbol === filter.symbol) && (filter.timeframe === ALL || f.timeframe === filter.timeframe) && f.month).map((f) => f.month),
  );
  return [{ value: ALL, label: 'Tous' }, ...[...months].sort().reverse().map((m) => ({ value: m, label: monthLabel(m) }))];
}

/** Library page size: 16, or 10 at widths of 640 px or less; 'show more' adds the same step. */
export const PAGE_SIZE = 16;
export const PAGE_SIZE_NARROW = 10;
export const NARROW_MAX_WIDTH = 640;

export function pageStep(viewportWidth: number): number {
  return viewportWidth <= NARROW_MAX_WIDTH ? PAGE_SIZE_NARROW : PAGE_SIZE;
}

export function visibleFiles<T>(files: readonly T[], pages: number, step: number): { shown: T[]; more: boolean } {
  const count = Math.max(1, pages) * step;
  return { shown: files.slice(0, count), more: files.length > count };
}

/**
 * The line of the private extractions section when it lists nothing: loading, failed ('Erreur de
 * chargement'), or empty. A failed call read 'Aucune extraction pour l’instant.', hiding files
 * the user paid for.
 */
export function recentPlaceholder(status: 'loading' | 'ready' | 'error', count: number): string | null {
  if (count > 0) return null;
  if (status === 'loading') return 'Chargement…';
  if (status === 'error') return SHOP_MESSAGES.loadError;
  return 'Aucune extraction pour l’instant.';
}

/** The 'show more' button: how many files are left, grouped the French way ('1 234 restants'). */
export function showMoreLabel(remaining: number): string {
  return `Afficher plus (${formatIntegerFr(remaining)} restant${remaining > 1 ? 's' : ''})`;
}

/** The pair given by the `symbol` query parameter, when the filter knows it. */
export function symbolFromQuery(param: string | null): string {
  if (!param) return ALL;
  const wanted = param.trim().toUpperCase().replace(/[^A-Z0-9.-]/g, '');
  return pairOptions().some((o) => o.value === wanted) ? wanted : ALL;
}

export function readOwnedCsvs(answer: unknown, field: 'files' | 'items' = 'files'): OwnedCsv[] {
  return listOf(answer, field)
    .map((item) => {
      const path = str(item.relative_path) || str(item.path);
      const live = str(item.source) === 'live' || str(item.kind) === 'extraction' || path.startsWith('live/');
      return {
        name: str(item.filename) || str(item.name) || path.split('/').pop() || '',
        path,
        symbol: str(item.symbol) || str(item.pair),
        timeframe: (str(item.timeframe) || str(item.tf)).toUpperCase(),
        period: str(item.period),
        startDate: str(item.start_date),
        endDate: str(item.end_date),
        createdAt: str(item.created_at) || str(item.purchased_at) || str(item.date),
        live,
        label: str(item.label) || (live ? LIVE_LABEL : ''),
        rows: num(item.rows),
      };
    })
    .filter((f) => f.path);
}

/** Live extractions are private to their owner (docs/product.md §2.2). */
export const LIVE_LABEL = 'LIVE (privé)';
export const RECENT_EXTRACTIONS = 3;

export function recentExtractions(files: readonly OwnedCsv[]): OwnedCsv[] {
  return [...files].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, RECENT_EXTRACTIONS);
}

export const SHOP_MESSAGES = {
  extractionSignup: 'Inscrivez-vous pour lancer une extraction.',
  extractionError: 'Erreur extraction',
  networkError: 'Erreur réseau',
  extractionMissing: 'Renseigne paire, TF, dates.',
  extractionDates: 'La date de début doit être ≤ à la date de fin.',
  loadError: 'Erreur de chargement',
  refreshError: 'Erreur de rafraîchissement',
  empty: 'Aucun fichier trouvé.',
  downloadError: 'Téléchargement impossible',
} as const;

export interface ExtractionInput {
  symbol: string;
  timeframe: string;
  startDate: string;
  endDate: string;
}

/** Extraction needs pair, timeframe and both dates, start at or before end (docs/product.md §2.5). */
export function checkExtraction(input: ExtractionInput): string | null {
  if (!input.symbol || input.symbol === ALL || !input.timeframe || input.timeframe === ALL || !input.startDate || !input.endDate) return SHOP_MESSAGES.extractionMissing;
  if (input.startDate > input.endDate) return SHOP_MESSAGES.extractionDates;
  return null;
}

/** Extraction timeframes (the server cuts M1 too, within 3 weeks). */
export const EXTRACTION_TIMEFRAMES = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4'] as const;

/**
 * The message of a failed extraction (docs/product.md §2.8): a 401 or a token-related message asks to sign
 * up; a network failure; otherwise the server's detail, or the default.
 */
export function extractionErrorMessage(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === 401 || /token|jeton|authentifi/i.test(error.detail ?? '')) return SHOP_MESSAGES.extractionSignup;
    return error.detail || SHOP_MESSAGES.extractionError;
  }
  if (error instanceof TypeError) return SHOP_MESSAGES.networkError;
  return SHOP_MESSAGES.extractionError;
}

/** The answer of an extraction: its error/detail field when the server says it failed. */
export function extractionAnswerError(answer: unknown): string | null {
  // A body that is not JSON (a proxy's page) is no extraction: saying 'Extraction prête.' with no
  // file would be false. The same range again is free, so a retry costs nothing.
  if (!answer || typeof answer !== 'object' || isNonJsonAnswer(answer)) return SHOP_MESSAGES.extractionError;
  const record = answer as Record<string, unknown>;
  const problem = str(record.error) || (record.status === 'error' ? str(record.detail) || SHOP_MESSAGES.extractionError : '');
  return problem || null;
}

/** A failed download: the server's detail ('Crédits insuffisants…'), else the default. */
export function downloadErrorMessage(error: unknown): string {
  if (error instanceof HttpError) return error.detail || SHOP_MESSAGES.downloadError;
  if (error instanceof TypeError) return SHOP_MESSAGES.networkError;
  return SHOP_MESSAGES.downloadError;
}

/**
 * A file's size as the rest of the app writes sizes (o, ko, Mo, Go: '812 ko', '1,5 Mo'); its own
 * rule wrote 'Ko' and could read '1024 Ko' just under a mebibyte.
 */
export function formatBytes(bytes: number | null): string {
  return bytes === null ? '' : formatSize(bytes);
}

/** The columns of the official files (docs/product.md §2.9), for the info strip's popover. */
export const CSV_COLUMNS = [
  { name: 'Datetime', text: 'Ouverture de la bougie, ISO 8601 en UTC.' },
  { name: 'Open', text: 'Prix d’ouverture.' },
  { name: 'High', text: 'Plus haut de la bougie.' },
  { name: 'Low', text: 'Plus bas de la bougie.' },
  { name: 'Close', text: 'Prix de clôture.' },
  { name: 'Volume', text: 'Volume échangé (peut valoir 0).' },
  { name: 'RSI_14', text: 'RSI 14 périodes (optionnel).' },
] as const;
