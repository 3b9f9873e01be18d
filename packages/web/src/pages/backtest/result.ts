/**
 * Reading the answer of a backtest call (docs/product.md §2.3 "Backtest result", §2.8): the error to show, or
 * the result folder and workbook name, the credits left, golden hours and statistics.
 */
import { isNonJsonAnswer } from '../../api/client.js';
import { HttpError, errorDetail } from '../../api/errors.js';
import { usableNumber } from '../../shell/credits.js';
import { fieldNumber as num, fieldString } from '../../api/fields.js';
import type { TitleParts } from '../../features/results/chartAnswer.js';
import { formatIntegerFr } from '../../lib/format.js';
import { goldenFromAnswer, type GoldenHourEntry, type GoldenSummary } from '../../features/results/golden.js';

export type { GoldenHourEntry };

export const RESULT_MESSAGES = {
  nonJson: 'Erreur serveur (réponse non-JSON)',
  officialDefault: 'Erreur backtest officiel',
  customDefault: 'Erreur backtest custom',
} as const;

export interface BacktestOutcome {
  folder: string;
  file: string;
  creditsRemaining: number | null;
  winrateGlobal: { TP1: number | null; TP2: number | null };
  goldenHours: GoldenHourEntry[];
  /** The golden hours with their threshold and what to say when there is none. */
  golden: GoldenSummary;
  /** Core statistics when the server includes them (charts). */
  statistics: unknown;
  /** Net R of the resolved trades in entry order, per target: what the Monte Carlo panel draws from. */
  rSequence: { tp1: number[]; tp2: number[] } | null;
  /** The server's warnings, French sentences (docs/api.md run_backtest): shown under the result's title. */
  warnings: string[];
  /** The human title's parts (docs/web.md "Result view"). */
  title: TitleParts;
  raw: Record<string, unknown>;
}

/** `r_sequence` of the answer, when it holds two lists of finite numbers. */
export function rSequenceOf(answer: Record<string, unknown>): BacktestOutcome['rSequence'] {
  const block = answer.r_sequence as Record<string, unknown> | undefined;
  const list = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (v as number[]) : null);
  const tp1 = list(block?.tp1);
  const tp2 = list(block?.tp2);
  return tp1 && tp2 ? { tp1, tp2 } : null;
}

/** At most this many warnings are listed; the rest are counted ('… et 3 autres avertissements.'). */
export const MAX_SHOWN_WARNINGS = 10;
/** A longer sentence is cut: the list stays a notice beside the result, not a page. */
const MAX_WARNING_CHARS = 500;

/**
 * `warnings` of the answer: its non-empty texts, trimmed, each once, in the server's order, at most
 * MAX_SHOWN_WARNINGS of them and a count of the others. Anything else in the list is ignored.
 */
export function warningsOf(answer: Record<string, unknown>): string[] {
  if (!Array.isArray(answer.warnings)) return [];
  const texts = [...new Set(answer.warnings.filter((w): w is string => typeof w === 'string').map((w) => w.trim()).filter(Boolean))];
  const cut = texts.map((w) => (w.length > MAX_WARNING_CHARS ? `${w.slice(0, MAX_WARNING_CHARS - 1)}…` : w));
  if (cut.length <= MAX_SHOWN_WARNINGS) return cut;
  const more = cut.length - (MAX_SHOWN_WARNINGS - 1);
  return [...cut.slice(0, MAX_SHOWN_WARNINGS - 1), `… et ${formatIntegerFr(more)} autres avertissements.`];
}

/** Folder and file of xlsx_result: the last two segments of its path (docs/product.md §2.3). */
export function splitResultPath(path: unknown): { folder: string; file: string } | null {
  if (typeof path !== 'string' || path.trim() === '') return null;
  const parts = path.replace(/\\/g, '/').split('/').filter(Boolean);
  if (parts.length < 2) {
    const file = parts[0] ?? '';
    return file ? { folder: file.replace(/\.xlsx$/i, ''), file } : null;
  }
  return { folder: parts[parts.length - 2], file: parts[parts.length - 1] };
}


function goldenHoursOf(answer: Record<string, unknown>): { winrateGlobal: BacktestOutcome['winrateGlobal']; goldenHours: GoldenHourEntry[] } {
  const block = (answer.golden_hours ?? {}) as Record<string, unknown>;
  const global = (block.winrate_global ?? {}) as Record<string, unknown>;
  const list = Array.isArray(block.golden_hours) ? block.golden_hours : [];
  return {
    winrateGlobal: { TP1: num(global.TP1), TP2: num(global.TP2) },
    goldenHours: list
      .filter((g): g is Record<string, unknown> => !!g && typeof g === 'object' && Number.isInteger((g as Record<string, unknown>).hour))
      .map((g) => ({
        hour: g.hour as number,
        TP1: num(g.TP1),
        TP2: num(g.TP2),
        trades: num(g.trades) ?? undefined,
        TP1_ci95: Array.isArray(g.TP1_ci95) && g.TP1_ci95.length === 2 ? (g.TP1_ci95 as [number, number]) : null,
      })),
  };
}

export type ParsedAnswer = { ok: true; outcome: BacktestOutcome } | { ok: false; error: string };

export function parseBacktestAnswer(answer: unknown, kind: 'official' | 'custom'): ParsedAnswer {
  const fallback = kind === 'official' ? RESULT_MESSAGES.officialDefault : RESULT_MESSAGES.customDefault;
  if (isNonJsonAnswer(answer)) return { ok: false, error: RESULT_MESSAGES.nonJson };
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return { ok: false, error: fallback };
  const record = answer as Record<string, unknown>;
  if (record.error) return { ok: false, error: errorDetail(record) ?? fallback };
  const paths = splitResultPath(record.xlsx_result);
  if (!paths) return { ok: false, error: errorDetail(record) ?? fallback };
  const golden = goldenHoursOf(record);
  return {
    ok: true,
    outcome: {
      ...paths,
      creditsRemaining: usableNumber(record.credits_remaining),
      ...golden,
      golden: goldenFromAnswer(golden.goldenHours, record.golden_hours),
      statistics: record.statistics ?? null,
      rSequence: rSequenceOf(record),
      warnings: warningsOf(record),
      title: {
        symbol: fieldString(record.symbol),
        timeframe: fieldString(record.timeframe),
        strategyLabel: fieldString(record.strategy_label) || fieldString(record.strategy),
        startDate: fieldString(record.start_date),
        endDate: fieldString(record.end_date),
        slMode: fieldString(record.sl_mode) || null,
        slPips: num(record.sl_pips),
      },
      raw: record,
    },
  };
}

/** The message of a failed call: non-JSON bodies, then the body's error/detail/message. */
export function backtestFailureMessage(error: unknown, kind: 'official' | 'custom'): string {
  const fallback = kind === 'official' ? RESULT_MESSAGES.officialDefault : RESULT_MESSAGES.customDefault;
  if (error instanceof HttpError) {
    if (isNonJsonAnswer(error.body)) return RESULT_MESSAGES.nonJson;
    const body = error.body && typeof error.body === 'object' ? (error.body as Record<string, unknown>) : {};
    const text = typeof body.error === 'string' ? body.error : error.detail;
    return text || fallback;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}

/** "spread 1,3 pips · commission 0,7 pips": the costs the run applied, or null without any. */
export function costsSummary(raw: Record<string, unknown>): string | null {
  const c = raw.costs as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object') return null;
  const n = (v: unknown) => (typeof v === 'number' && v > 0 ? v.toLocaleString('fr-FR') : null);
  const parts: string[] = [];
  if (c.spread_from_data === true && typeof c.spread_data_candles === 'number' && c.spread_data_candles > 0) parts.push('spread du fichier');
  if (Array.isArray(c.spread_by_hour)) parts.push('spread par heure');
  else if (n(c.spread_pips)) parts.push(`spread ${n(c.spread_pips)} pips`);
  if (n(c.commission_pips)) parts.push(`commission ${n(c.commission_pips)} pips`);
  if (n(c.commission_per_lot)) parts.push(`commission ${n(c.commission_per_lot)} ${String(c.account_currency ?? '')} par lot`);
  if (n(c.slippage_pips)) parts.push(`slippage ${n(c.slippage_pips)} pips`);
  return parts.length ? parts.join(' · ') : null;
}
