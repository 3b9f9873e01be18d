/**
 * The pair sheet's "Données dans bt" line: which official months bt holds for the instrument, per
 * timeframe, read from the CSV library listing (GET /api/list_csv_library?symbol=).
 */
import { LIBRARY_TIMEFRAMES } from '@bt/core/catalogue';
import { monthLabel, type LibraryFile } from '../../../features/csv/library.js';

export interface SeriesSpan {
  timeframe: string;
  /** 'YYYY-MM'. */
  firstMonth: string;
  lastMonth: string;
  months: number;
  candles: number;
}

/** One span per timeframe of the symbol's files, H4 first down to M5. */
export function spansFromLibrary(files: readonly LibraryFile[], symbol: string): SeriesSpan[] {
  const byTimeframe = new Map<string, SeriesSpan>();
  for (const file of files) {
    if (file.symbol !== symbol || !file.month) continue;
    const span = byTimeframe.get(file.timeframe);
    if (!span) {
      byTimeframe.set(file.timeframe, { timeframe: file.timeframe, firstMonth: file.month, lastMonth: file.month, months: 1, candles: file.rows ?? 0 });
      continue;
    }
    span.months += 1;
    span.candles += file.rows ?? 0;
    if (file.month < span.firstMonth) span.firstMonth = file.month;
    if (file.month > span.lastMonth) span.lastMonth = file.month;
  }
  const rank = (tf: string) => (LIBRARY_TIMEFRAMES as readonly string[]).indexOf(tf);
  return [...byTimeframe.values()].sort((a, b) => rank(a.timeframe) - rank(b.timeframe));
}

function joinFr(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} et ${items[items.length - 1]}`;
}

export const NO_OFFICIAL_DATA = 'Pas encore de données officielles pour cet instrument : backteste-le avec ton propre CSV (voir « Uploader un CSV »).';

/**
 * 'H4, H1 et M15 : 24 mois entre avril 2017 et octobre 2023 ; M5 : janvier 2023 (1 mois).'
 * Timeframes with the same months are named together.
 */
export function availableDataText(spans: readonly SeriesSpan[]): string {
  if (spans.length === 0) return NO_OFFICIAL_DATA;
  const groups: { timeframes: string[]; span: SeriesSpan }[] = [];
  for (const span of spans) {
    const same = groups.find((g) => g.span.firstMonth === span.firstMonth && g.span.lastMonth === span.lastMonth && g.span.months === span.months);
    if (same) same.timeframes.push(span.timeframe);
    else groups.push({ timeframes: [span.timeframe], span });
  }
  const parts = groups.map(({ timeframes, span }) => {
    const when =
      span.months === 1
        ? `${monthLabel(span.firstMonth)} (1 mois)`
        : `${span.months} mois entre ${monthLabel(span.firstMonth)} et ${monthLabel(span.lastMonth)}`;
    return `${joinFr(timeframes)} : ${when}`;
  });
  return `${parts.join(' ; ')} (UTC).`;
}
