/**
 * The 7 × 24 backtests heatmap (docs/product.md §3.2, §3.9): Monday first, one cell per UTC weekday and hour,
 * shaded from 0.08 (an empty cell) to 0.5 (the busiest) of the accent colour.
 */
import type { HeatmapRow } from '../../api/admin.js';

export const WEEKDAYS = ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim'] as const;
export const WEEKDAY_NAMES = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'] as const;
export const SHADE_MIN = 0.08;
export const SHADE_MAX = 0.5;

/** Seven rows of 24 counts, Monday first, whatever the answer held (missing cells are 0). */
export function heatmapGrid(rows: readonly HeatmapRow[] | null | undefined): number[][] {
  return WEEKDAYS.map((label, day) => {
    const row = rows?.find((r) => r.label === label) ?? rows?.[day];
    return Array.from({ length: 24 }, (_, hour) => {
      const value = row?.hours?.[hour];
      return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
    });
  });
}

export function gridMax(grid: readonly number[][]): number {
  return grid.reduce((max, row) => Math.max(max, ...row), 0);
}

/** The cell's opacity: 0.08 for nothing, rising linearly to 0.5 at the maximum. */
export function cellShade(count: number, max: number): number {
  if (!(max > 0) || !(count > 0)) return SHADE_MIN;
  return SHADE_MIN + (SHADE_MAX - SHADE_MIN) * Math.min(1, count / max);
}
