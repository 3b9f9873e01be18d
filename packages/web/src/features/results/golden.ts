/**
 * The golden hours as the result view shows them (docs/report.md "Golden hours": core decides
 * them, the view only reads): from the backtest answer's `golden_hours`, or from a stored
 * workbook (Par_Heure's rank column and Config's `golden_hours_utc`).
 */
import { LABELS, NO_ELIGIBLE_HOUR, NO_GOLDEN_HOUR } from '@bt/core/format';

export interface GoldenHourEntry {
  hour: number;
  TP1: number | null;
  TP2: number | null;
  trades?: number;
  TP1_ci95?: readonly [number, number] | null;
}

export interface GoldenSummary {
  /** Best first, at most 3. */
  hours: GoldenHourEntry[];
  /** Resolved trades an hour needs to be eligible (null: unknown, an older result). */
  minTrades: number | null;
  /** What the card says when there is none. */
  emptyText: string;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** From the backtest answer's `golden_hours` block (already parsed into entries). */
export function goldenFromAnswer(hours: GoldenHourEntry[], block: unknown): GoldenSummary {
  const record = block && typeof block === 'object' ? (block as Record<string, unknown>) : {};
  const eligible = num(record.eligible_hours);
  return { hours, minTrades: num(record.min_trades), emptyText: eligible === 0 ? NO_ELIGIBLE_HOUR : NO_GOLDEN_HOUR };
}

/** From a stored workbook: Par_Heure (headers and rows) and Config as [metric, value] rows. */
export function goldenFromSheets(hours: { headers: string[]; rows: unknown[][] } | null, config: readonly (readonly unknown[])[] | null): GoldenSummary {
  const settings = new Map((config ?? []).map((r) => [String(r[0] ?? ''), r[1]]));
  const rankAt = hours?.headers.indexOf(LABELS.goldenRank) ?? -1;
  const at = (label: string) => hours?.headers.indexOf(label) ?? -1;
  const ranked: (GoldenHourEntry & { rank: number })[] = [];
  if (hours && rankAt >= 0) {
    for (const row of hours.rows) {
      const rank = num(row[rankAt]);
      const hour = num(row[at(LABELS.hour)]);
      if (rank === null || hour === null) continue;
      ranked.push({ rank, hour, TP1: num(row[at(LABELS.winrateTp1)]), TP2: num(row[at(LABELS.winrateTp2)]), trades: num(row[at(LABELS.resolved)]) ?? undefined });
    }
  }
  ranked.sort((a, b) => a.rank - b.rank);
  const text = settings.get('golden_hours_utc');
  return {
    hours: ranked.map(({ rank: _rank, ...entry }) => entry),
    minTrades: num(settings.get('golden_hours_min_trades')),
    emptyText: typeof text === 'string' && /^aucune/i.test(text) ? text : NO_GOLDEN_HOUR,
  };
}
