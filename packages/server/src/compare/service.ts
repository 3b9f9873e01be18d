import { SESSION_BUCKETS, WEEKDAY_LABELS } from '@bt/core/stats';
import { badRequest, notFound } from '../app/errors.js';
import { text, type Body } from '../app/input.js';
import type { Database } from '../db/database.js';
import type { BacktestRun } from '../db/models.js';
import { parseSummary, type BucketFigures, type RunSummary } from '../results/summary.js';

export const COMPARE_METRICS = ['session', 'day', 'hour', 'winrate_tp1', 'winrate_tp2', 'trades_count', 'sl_rate'] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];
export const MAX_ANALYSES = 4;

export const COMPARE_MESSAGES = {
  count: `Sélectionne 1 à ${MAX_ANALYSES} analyses.`,
  metric: (m: string) => `Métrique inconnue : « ${m} » (${COMPARE_METRICS.join(', ')}).`,
  unknown: 'Analyse introuvable.',
} as const;

export interface CompareSeries {
  analysis_id: number;
  label: string;
  values: (number | null)[];
}

export interface CompareData {
  metric: CompareMetric;
  normalize: boolean;
  buckets: string[];
  series: CompareSeries[];
  value_type: 'percentage' | 'count';
  /** Decimals to show: of a percentage (values are fractions 0..1, shown x100), or of a count. */
  precision: number;
}

/**
 * The comparator (docs/product.md §2.2 "/comparateur", §2.7): 1 to 4 of the user's own finished analyses,
 * compared on one metric. Figures come from the summary each run stored (results/summary.ts),
 * so no workbook is read. Win rates per bucket are TP1 win rates, null where the bucket has no
 * resolved trade; with `normalize`, the per-bucket metrics give each bucket's share of the
 * analysis' trades instead.
 */
export class Comparator {
  constructor(private readonly db: Database) {}

  async data(userId: number, body: Body): Promise<CompareData> {
    const ids = body.analysis_ids ?? body.ids;
    const list = (Array.isArray(ids) ? ids : typeof ids === 'string' ? ids.split(',') : ids === undefined || ids === null ? [] : [ids]).map(analysisId);
    const unique = [...new Set(list)];
    if (unique.length < 1 || unique.length > MAX_ANALYSES) throw badRequest(COMPARE_MESSAGES.count);
    if (unique.some((id) => !Number.isSafeInteger(id) || id < 1)) throw notFound(COMPARE_MESSAGES.unknown);
    // One value each (app/input.ts): `["session"]` is the one-value 400, not read as "session".
    const metric = (text(body, 'metric') || 'winrate_tp1') as CompareMetric;
    if (!COMPARE_METRICS.includes(metric)) throw badRequest(COMPARE_MESSAGES.metric(metric.slice(0, 40)));
    const normalizeValue = body.normalize;
    const normalize = normalizeValue === true || normalizeValue === 'true' || normalizeValue === 1 || normalizeValue === '1';
    const runs = await this.db.models.BacktestRun.findAll({ where: { userId, status: 'done', id: unique } });
    if (runs.length !== unique.length) throw notFound(COMPARE_MESSAGES.unknown);
    const ordered = unique.map((id) => runs.find((r) => r.id === id)!);
    const valueType = metric === 'trades_count' ? 'count' : 'percentage';
    return {
      metric,
      normalize,
      buckets: bucketsOf(metric),
      series: ordered.map((run) => ({ analysis_id: run.id, label: labelOf(run), values: valuesOf(metric, parseSummary(run.summary), run, normalize) })),
      value_type: valueType,
      precision: valueType === 'count' ? 0 : 2,
    };
  }
}

/**
 * One id of `analysis_ids`: a whole number, or its decimal text. Anything else (a list, an object,
 * `0x10`, `1e0`) is NaN, an unknown analysis (404) — never converted through String(), which
 * recursed through nested lists until the stack overflowed (a 500).
 */
function analysisId(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*\d{1,16}\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

export function labelOf(run: Pick<BacktestRun, 'symbol' | 'timeframe' | 'strategyLabel' | 'startDate' | 'endDate'>): string {
  return `${run.symbol} ${run.timeframe} · ${run.strategyLabel} · ${run.startDate} → ${run.endDate}`;
}

function bucketsOf(metric: CompareMetric): string[] {
  switch (metric) {
    case 'session':
      return SESSION_BUCKETS.map((b) => b.name);
    case 'day':
      return [...WEEKDAY_LABELS];
    case 'hour':
      return Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}h`);
    case 'winrate_tp1':
      return ['Winrate TP1'];
    case 'winrate_tp2':
      return ['Winrate TP2'];
    case 'trades_count':
      return ['Trades'];
    case 'sl_rate':
      return ['Taux SL'];
  }
}

function valuesOf(metric: CompareMetric, summary: RunSummary | null, run: BacktestRun, normalize: boolean): (number | null)[] {
  const groups: BucketFigures[] | null =
    metric === 'session' ? summary?.sessions ?? null : metric === 'day' ? summary?.weekdays ?? null : metric === 'hour' ? summary?.hours ?? null : null;
  if (groups) {
    const total = summary!.global.trades;
    return groups.map((g) => (normalize ? (total ? g.trades / total : null) : g.winrate_tp1));
  }
  switch (metric) {
    case 'winrate_tp1':
      return [run.winrateTp1];
    case 'winrate_tp2':
      return [run.winrateTp2];
    case 'trades_count':
      return [run.trades];
    case 'sl_rate':
      return [summary?.global.sl_rate ?? null];
    default:
      // A run stored without its summary: no bucket figures.
      return bucketsOf(metric).map(() => null);
  }
}
