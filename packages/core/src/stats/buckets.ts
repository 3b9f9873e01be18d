import type { SessionName } from '../simulate/types.js';

export interface SessionBucket {
  readonly name: SessionName;
  /** First and last UTC entry hour of the bucket, inclusive. */
  readonly fromHour: number;
  readonly toHour: number;
}

/**
 * Fixed trading-session buckets by UTC entry hour (docs/architecture.md §2). Fixed on purpose: a run's
 * sessions must not move with daylight saving, so results of different months compare.
 */
export const SESSION_BUCKETS: readonly SessionBucket[] = [
  { name: 'Asie', fromHour: 0, toHour: 7 },
  { name: 'Londres', fromHour: 8, toHour: 12 },
  { name: 'Londres/New York', fromHour: 13, toHour: 16 },
  { name: 'New York', fromHour: 17, toHour: 21 },
  { name: 'Hors session', fromHour: 22, toHour: 23 },
];

const SESSION_INDEX_BY_HOUR: readonly number[] = Array.from({ length: 24 }, (_, hour) =>
  SESSION_BUCKETS.findIndex((s) => hour >= s.fromHour && hour <= s.toHour),
);

function checkHour(hour: number): void {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new Error(`invalid hour: ${hour} (expected an integer 0..23)`);
}

/** Index into SESSION_BUCKETS of a UTC hour. */
export function sessionIndexForHour(hour: number): number {
  checkHour(hour);
  return SESSION_INDEX_BY_HOUR[hour];
}

/** Session of a UTC entry hour (the engine fills `Trade.session` with it). */
export function sessionForHour(hour: number): SessionName {
  return SESSION_BUCKETS[sessionIndexForHour(hour)].name;
}

/** "00-07" style label of a session's hours. */
export function sessionHoursLabel(bucket: SessionBucket): string {
  return `${String(bucket.fromHour).padStart(2, '0')}-${String(bucket.toHour).padStart(2, '0')}`;
}

/** French weekday abbreviations, Monday first (Trade.weekday 0 = Monday). */
export const WEEKDAY_LABELS = ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven', 'Sam', 'Dim'] as const;
export type WeekdayLabel = (typeof WEEKDAY_LABELS)[number];

/** Weekday 0 = Monday .. 6 = Sunday and hour 0..23 of a UTC time in ms. */
export function utcWeekday(timeMs: number): number {
  return (new Date(timeMs).getUTCDay() + 6) % 7;
}
