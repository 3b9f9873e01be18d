/**
 * What the comparator draws (docs/product.md §2.7, §2.9): metrics and chart types, the answer of
 * POST /api/compare/data shaped into points, values and their display, the 6-colour palette, the
 * grid divisions, the size rules and the radar's polar projection. Plot only draws the result.
 */
import { formatNumberFr } from '@bt/core/format';
import { fieldNumber as numberOrNull } from '../../api/fields.js';
import { withFrenchPeriods } from '../../lib/format.js';

export const METRICS = [
  { value: 'session', label: 'Win rate TP1 par session' },
  { value: 'day', label: 'Win rate TP1 par jour' },
  { value: 'hour', label: 'Win rate TP1 par heure (UTC)' },
  { value: 'winrate_tp1', label: 'Win rate TP1' },
  { value: 'winrate_tp2', label: 'Win rate TP2' },
  { value: 'trades_count', label: 'Nombre de trades' },
  { value: 'sl_rate', label: 'Taux de stop-loss' },
] as const;

export type Metric = (typeof METRICS)[number]['value'];
export const DEFAULT_METRIC: Metric = 'session';

export function metricLabel(metric: string): string {
  return METRICS.find((m) => m.value === metric)?.label ?? metric;
}

export const CHART_TYPES = [
  { value: 'bars', label: 'Barres' },
  { value: 'line', label: 'Ligne' },
  { value: 'radar', label: 'Radar' },
] as const;

export type ChartType = (typeof CHART_TYPES)[number]['value'];

/** Legend colours cycle modulo 6 (docs/product.md §2.9). */
export const COMPARE_PALETTE = ['#3b82f6', '#f59e0b', '#22c55e', '#ef4444', '#a855f7', '#06b6d4'] as const;

export function seriesColor(index: number): string {
  return COMPARE_PALETTE[((index % COMPARE_PALETTE.length) + COMPARE_PALETTE.length) % COMPARE_PALETTE.length];
}

/** French day abbreviations, Monday first (docs/product.md §2.2). */
export const FRENCH_DAYS = ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim'] as const;

const DAY_ALIASES: Record<string, number> = {
  mon: 0, monday: 0, lundi: 0, lun: 0,
  tue: 1, tuesday: 1, mardi: 1, mar: 1,
  wed: 2, wednesday: 2, mercredi: 2, mer: 2,
  thu: 3, thursday: 3, jeudi: 3, jeu: 3,
  fri: 4, friday: 4, vendredi: 4, ven: 4,
  sat: 5, saturday: 5, samedi: 5, sam: 5,
  sun: 6, sunday: 6, dimanche: 6, dim: 6,
};

/** A day bucket as 'Lun'…'Dim', whatever the server sent (English or French name, index 0 = Monday). */
export function frenchDayLabel(bucket: string | number): string {
  if (typeof bucket === 'number' && Number.isInteger(bucket) && bucket >= 0 && bucket < 7) return FRENCH_DAYS[bucket];
  const key = String(bucket).trim().toLowerCase().replace(/\.$/, '');
  const index = DAY_ALIASES[key];
  return index === undefined ? String(bucket) : FRENCH_DAYS[index];
}

export type ValueType = 'percentage' | 'count';

export interface CompareSeries {
  id: string;
  label: string;
  color: string;
  /** Displayed values: percentages already × 100; null where the bucket has no trade. */
  values: Array<number | null>;
}

export interface CompareChartModel {
  metric: string;
  buckets: string[];
  series: CompareSeries[];
  valueType: ValueType;
  precision: number;
}

export interface ChartPoint {
  bucket: string;
  bucketIndex: number;
  series: string;
  seriesIndex: number;
  color: string;
  value: number;
}


/**
 * The answer of POST /api/compare/data as a model. Series are matched to the selection by
 * `analysis_id` so each keeps its colour (its position in the selection) whatever the server's
 * order; percentages are fractions 0..1 and become percents here.
 */
export function readCompareAnswer(answer: unknown, selection: readonly string[], labels: ReadonlyMap<string, string> = new Map()): CompareChartModel {
  const body = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>;
  const metric = String(body.metric ?? '');
  const rawBuckets = Array.isArray(body.buckets) ? body.buckets : [];
  const buckets = rawBuckets.map((b) => (metric === 'day' ? frenchDayLabel(b as string | number) : String(b)));
  const valueType: ValueType = body.value_type === 'count' ? 'count' : 'percentage';
  const precision = typeof body.precision === 'number' && body.precision >= 0 ? Math.min(6, Math.floor(body.precision)) : valueType === 'count' ? 0 : 2;
  const rawSeries = Array.isArray(body.series) ? (body.series as Array<Record<string, unknown>>) : [];
  const series = rawSeries
    .filter((s) => s && typeof s === 'object')
    .map((s, position) => {
      const id = String(s.analysis_id ?? '');
      const at = selection.indexOf(id);
      const index = at >= 0 ? at : position;
      const values = buckets.map((_, i) => {
        const v = numberOrNull(Array.isArray(s.values) ? s.values[i] : null);
        return v === null ? null : valueType === 'percentage' ? v * 100 : v;
      });
      return { index, series: { id, label: withFrenchPeriods(String(s.label ?? labels.get(id) ?? id)), color: seriesColor(index), values } };
    })
    .sort((a, b) => a.index - b.index)
    .map((s) => s.series);
  // Labels name the series in the legend and the colour scale: two runs of one setting must differ.
  const seen = new Map<string, number>();
  for (const s of series) {
    const count = (seen.get(s.label) ?? 0) + 1;
    seen.set(s.label, count);
    if (count > 1) s.label = `${s.label} (${count})`;
  }
  return { metric, buckets, series, valueType, precision };
}

/** Every non-null value as a point (bars, dots, text). */
export function chartPoints(model: CompareChartModel): ChartPoint[] {
  const points: ChartPoint[] = [];
  model.series.forEach((s, seriesIndex) =>
    s.values.forEach((value, bucketIndex) => {
      if (value !== null) points.push({ bucket: model.buckets[bucketIndex], bucketIndex, series: s.label, seriesIndex, color: s.color, value });
    }),
  );
  return points;
}

export function hasValues(model: CompareChartModel): boolean {
  return model.series.some((s) => s.values.some((v) => v !== null));
}

/** A value as the table and tooltips show it, in French: '53,85 %' or '1 012'; '—' for no data. */
export function formatValue(value: number | null, model: Pick<CompareChartModel, 'valueType' | 'precision'>): string {
  if (value === null) return '—';
  const text = formatNumberFr(value, model.precision);
  return model.valueType === 'percentage' ? `${text}\u202f%` : text;
}

/** Grid divisions: 5 for percentages, 4 for counts (docs/product.md §2.9). */
export function gridDivisions(valueType: ValueType): number {
  return valueType === 'percentage' ? 5 : 4;
}

/** The value axis: 0–100 in 5 steps for percentages; for counts 4 whole steps covering the maximum. */
export function valueScale(model: CompareChartModel): { max: number; ticks: number[] } {
  const divisions = gridDivisions(model.valueType);
  if (model.valueType === 'percentage') return { max: 100, ticks: Array.from({ length: divisions + 1 }, (_, i) => (100 / divisions) * i) };
  const highest = Math.max(0, ...model.series.flatMap((s) => s.values.filter((v): v is number => v !== null)));
  const step = Math.max(1, Math.ceil(highest / divisions));
  return { max: step * divisions, ticks: Array.from({ length: divisions + 1 }, (_, i) => step * i) };
}

/** The table scrolls beyond 8 buckets (docs/product.md §2.9). */
export const TABLE_SCROLL_AFTER_BUCKETS = 8;
export function tableScrolls(bucketCount: number): boolean {
  return bucketCount > TABLE_SCROLL_AFTER_BUCKETS;
}

/** Chart sizes (docs/product.md §2.9): height ≥ 360 and window height − 280; width ≥ 300; scrolls below a 900 px container. */
export const CHART_MIN_HEIGHT = 360;
export const CHART_HEIGHT_OFFSET = 280;
export const CHART_MIN_WIDTH = 300;
export const CHART_SCROLL_BELOW = 900;

export function chartHeight(windowHeight: number): number {
  return Math.max(CHART_MIN_HEIGHT, Math.floor(windowHeight - CHART_HEIGHT_OFFSET));
}

/**
 * The drawn width. From 900 px of container the chart fits it. Below, bars and lines keep the
 * width they need to stay readable (900 px at most, so the container scrolls horizontally) and
 * never go under 300; the radar is round and simply fits (≥ 300).
 */
export function chartWidth(containerWidth: number, type: ChartType): number {
  const container = Math.max(0, Math.floor(containerWidth));
  if (container >= CHART_SCROLL_BELOW || type === 'radar') return Math.max(CHART_MIN_WIDTH, container);
  return Math.max(CHART_MIN_WIDTH, CHART_SCROLL_BELOW);
}

export function chartScrolls(containerWidth: number, type: ChartType): boolean {
  return chartWidth(containerWidth, type) > Math.floor(containerWidth);
}

export interface RadarVertex {
  series: string;
  seriesIndex: number;
  color: string;
  bucket: string;
  value: number | null;
  x: number;
  y: number;
}

/** Angle of axis i of n: the first axis points up, then clockwise. */
export function radarAngle(index: number, count: number): number {
  return -Math.PI / 2 + (2 * Math.PI * index) / Math.max(1, count);
}

/** A point at `radius` (0..1) on axis i of n, in a unit square centred on 0. */
export function polar(index: number, count: number, radius: number): { x: number; y: number } {
  const angle = radarAngle(index, count);
  return { x: radius * Math.cos(angle), y: radius * Math.sin(angle) };
}

/**
 * Each series as a closed polygon of vertices (the first repeated at the end). A missing value
 * sits at the centre (value null) so the shape stays closed.
 */
export function radarPolygons(model: CompareChartModel): RadarVertex[][] {
  const { max } = valueScale(model);
  const n = model.buckets.length;
  return model.series.map((s, seriesIndex) => {
    const ring = model.buckets.map((bucket, i) => {
      const value = s.values[i];
      const radius = value === null || max <= 0 ? 0 : Math.min(1, Math.max(0, value / max));
      return { series: s.label, seriesIndex, color: s.color, bucket, value, ...polar(i, n, radius) };
    });
    return ring.length ? [...ring, ring[0]] : ring;
  });
}

/** The polar grid: one closed ring per division, plus the spokes and their labels. */
export function radarGrid(model: CompareChartModel): {
  rings: Array<Array<{ ring: number; x: number; y: number }>>;
  spokes: Array<{ bucket: string; x: number; y: number }>;
  ringLabels: Array<{ x: number; y: number; text: string }>;
} {
  const { ticks, max } = valueScale(model);
  const n = Math.max(model.buckets.length, 1);
  // A ring needs at least 3 sides to read as one; 1 or 2 axes get a hexagonal grid.
  const sides = Math.max(n, 6);
  const rings = ticks.slice(1).map((tick, r) => {
    const radius = max > 0 ? tick / max : 0;
    const ring = Array.from({ length: sides }, (_, i) => ({ ring: r, ...polar(i, sides, radius) }));
    return [...ring, ring[0]];
  });
  const spokes = model.buckets.map((bucket, i) => ({ bucket, ...polar(i, n, 1) }));
  const ringLabels = ticks.slice(1).map((tick) => ({ x: 0.02, y: -(max > 0 ? tick / max : 0), text: model.valueType === 'percentage' ? `${tick} %` : String(tick) }));
  return { rings, spokes, ringLabels };
}
