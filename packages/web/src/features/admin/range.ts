/**
 * The statistics range (docs/product.md §3.2, §3.5): Jour, Semaine, Mois, Tout, or Custom with
 * Du and Au. Custom defaults to the last 30 days ending today; moving Du past Au pushes Au to
 * Du, and moving Au before Du pulls Du to Au, so the pair is never reversed. Days are UTC
 * calendar days (`YYYY-MM-DD`), as the server counts them.
 */
import type { RangeKey, RangeQuery } from '../../api/admin.js';

export const RANGE_BUTTONS: readonly { key: RangeKey; label: string }[] = [
  { key: 'day', label: 'Jour' },
  { key: 'week', label: 'Semaine' },
  { key: 'month', label: 'Mois' },
  { key: 'all', label: 'Tout' },
  { key: 'custom', label: 'Custom' },
];

/** The custom range's default length: today and the 29 days before (30 days). */
export const DEFAULT_CUSTOM_DAYS = 30;

const DAY_MS = 86_400_000;

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && utcDay(ms) === text;
}

export interface RangeState {
  range: RangeKey;
  start: string;
  end: string;
}

/** The default: the last 30 days to today, shown as Custom's Du / Au (the presets keep them). */
export function defaultRange(nowMs: number, range: RangeKey = 'custom'): RangeState {
  return { range, start: utcDay(nowMs - (DEFAULT_CUSTOM_DAYS - 1) * DAY_MS), end: utcDay(nowMs) };
}

/** Du changed: an invalid day is ignored; a start after the end pushes the end to it. */
export function withStart(state: RangeState, start: string): RangeState {
  if (!isDay(start)) return state;
  return { ...state, range: 'custom', start, end: start > state.end ? start : state.end };
}

/** Au changed: an invalid day is ignored; an end before the start pulls the start to it. */
export function withEnd(state: RangeState, end: string): RangeState {
  if (!isDay(end)) return state;
  return { ...state, range: 'custom', end, start: end < state.start ? end : state.start };
}

export function withPreset(state: RangeState, range: RangeKey): RangeState {
  return { ...state, range };
}

/** What the statistics calls take: the dates only for Custom. */
export function rangeQuery(state: RangeState): RangeQuery {
  return state.range === 'custom' ? { range: 'custom', start: state.start, end: state.end } : { range: state.range };
}
