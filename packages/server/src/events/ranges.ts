import { Op, type WhereOptions } from 'sequelize';
import { badRequest } from '../app/errors.js';
import { text, type Body } from '../app/input.js';
import { ADMIN_MSG } from '../admin/messages.js';

export const RANGES = ['day', 'week', 'month', 'all', 'custom'] as const;
export type RangeName = (typeof RANGES)[number];

/** Days of each rolling range, today included (docs/admin.md, "Ranges"). */
const RANGE_DAYS: Record<'day' | 'week' | 'month', number> = { day: 1, week: 7, month: 30 };
const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A period of the statistics: whole UTC calendar days, `start` included, `end` excluded (the day
 * after the last one). `all` has no bounds. Every other range ends with today (UTC), so an event of
 * today counts in every range, and nothing later exists.
 */
export interface StatsRange {
  range: RangeName;
  /** First instant counted, null for `all`. */
  start: Date | null;
  /** First instant not counted: midnight (UTC) after the last day. */
  end: Date;
  /** The first and last days counted, YYYY-MM-DD (first: null for `all`). */
  firstDay: string | null;
  lastDay: string;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A YYYY-MM-DD that is a real calendar day, as midnight UTC; 400 naming the field otherwise. */
export function parseDay(field: string, value: string): number {
  const match = DAY.exec(value);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || Number.isNaN(ms) || dayOf(ms) !== value) throw badRequest(ADMIN_MSG.badDay(field, value));
  return ms;
}

/** The range of a request (`range`, and `start` / `end` for custom); `month` when none is given. */
export function parseRange(query: Body, now: Date): StatsRange {
  const name = (text(query, 'range') || 'month').toLowerCase();
  if (!(RANGES as readonly string[]).includes(name)) throw badRequest(ADMIN_MSG.badRange(name));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const tomorrow = today + DAY_MS;
  if (name === 'all') return { range: 'all', start: null, end: new Date(tomorrow), firstDay: null, lastDay: dayOf(today) };
  if (name === 'custom') {
    const startText = text(query, 'start');
    const endText = text(query, 'end');
    if (!startText || !endText) throw badRequest(ADMIN_MSG.customNeedsDates);
    const first = parseDay('start', startText);
    const last = parseDay('end', endText);
    if (last < first) throw badRequest(ADMIN_MSG.rangeReversed);
    return { range: 'custom', start: new Date(first), end: new Date(last + DAY_MS), firstDay: startText, lastDay: endText };
  }
  const days = RANGE_DAYS[name as keyof typeof RANGE_DAYS];
  const first = today - (days - 1) * DAY_MS;
  return { range: name as RangeName, start: new Date(first), end: new Date(tomorrow), firstDay: dayOf(first), lastDay: dayOf(today) };
}

/** `occurred_at` (or another date column) inside the range; `all` is every row, whatever its date. */
export function within(range: StatsRange, column = 'occurredAt'): WhereOptions {
  return range.start ? { [column]: { [Op.gte]: range.start, [Op.lt]: range.end } } : {};
}

/** The range as answers show it. */
export function describeRange(range: StatsRange) {
  return { range: range.range, start: range.firstDay, end: range.lastDay };
}

/** Every day from `first` to `last` included (series show empty days as 0), ten years at most. */
export function daysOf(first: string, last: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${last}T00:00:00Z`);
  for (let ms = Date.parse(`${first}T00:00:00Z`); ms <= end && out.length < 3700; ms += DAY_MS) out.push(dayOf(ms));
  return out;
}
