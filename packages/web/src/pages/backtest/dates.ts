/**
 * Dates of the backtest form (docs/product.md §2.2, §2.5, §2.9): the four presets, the period length and its
 * checks. Dates are calendar days 'YYYY-MM-DD' in UTC, both ends included (1 Jan → 31 Jan is 31
 * days), so a full month always fits the 31-day limit.
 */
import { MAX_BACKTEST_DAYS } from '@bt/core/catalogue';

export const DATE_MESSAGES = {
  order: 'La date de début doit être ≤ à la date de fin.',
  tooLong: (days: number) => `Période trop longue (${days} jours). Maximum : ${MAX_BACKTEST_DAYS} jours.`,
} as const;

export type DatePreset = 'last7' | 'last30' | 'thisMonth' | 'lastMonth';

export const DATE_PRESETS: { id: DatePreset; label: string }[] = [
  { id: 'last7', label: '7 derniers jours' },
  { id: 'last30', label: '30 derniers jours' },
  { id: 'thisMonth', label: 'Ce mois-ci' },
  { id: 'lastMonth', label: 'Mois dernier' },
];

const DAY_MS = 86_400_000;

export function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function parseDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const time = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(time) && isoDay(time) === text ? time : null;
}

export function presetRange(preset: DatePreset, now: number): { start: string; end: string } {
  const today = new Date(now);
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const todayStart = Date.UTC(y, m, today.getUTCDate());
  switch (preset) {
    case 'last7':
      return { start: isoDay(todayStart - 6 * DAY_MS), end: isoDay(todayStart) };
    case 'last30':
      return { start: isoDay(todayStart - 29 * DAY_MS), end: isoDay(todayStart) };
    case 'thisMonth':
      return { start: isoDay(Date.UTC(y, m, 1)), end: isoDay(todayStart) };
    case 'lastMonth':
      return { start: isoDay(Date.UTC(y, m - 1, 1)), end: isoDay(Date.UTC(y, m, 0)) };
  }
}

/** Days in the period, both ends included; null when a date is missing or invalid. */
export function periodDays(start: string, end: string): number | null {
  const a = parseDay(start);
  const b = parseDay(end);
  if (a === null || b === null) return null;
  return Math.round((b - a) / DAY_MS) + 1;
}

/** The date problem to show, if any; admins bypass the 31-day limit (docs/product.md §2.6). */
export function dateError(start: string, end: string, isAdmin: boolean): string | null {
  const a = parseDay(start);
  const b = parseDay(end);
  if (a === null || b === null) return null;
  if (a > b) return DATE_MESSAGES.order;
  const days = Math.round((b - a) / DAY_MS) + 1;
  if (!isAdmin && days > MAX_BACKTEST_DAYS) return DATE_MESSAGES.tooLong(days);
  return null;
}
