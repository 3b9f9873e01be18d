/** A time zone of the hourly sheet's selector. */
export interface HourlyTimeZone {
  /** IANA name. */
  readonly id: string;
  /** French label for the selector. */
  readonly label: string;
}

/** The 12 zones of the hourly sheet (docs/product.md §2.9), Brussels first as the default. */
export const HOURLY_TIME_ZONES: readonly HourlyTimeZone[] = [
  { id: 'Europe/Brussels', label: 'Bruxelles' },
  { id: 'Europe/London', label: 'Londres' },
  { id: 'Europe/Berlin', label: 'Berlin' },
  { id: 'Europe/Paris', label: 'Paris' },
  { id: 'America/New_York', label: 'New York' },
  { id: 'America/Chicago', label: 'Chicago' },
  { id: 'America/Denver', label: 'Denver' },
  { id: 'America/Los_Angeles', label: 'Los Angeles' },
  { id: 'America/Sao_Paulo', label: 'São Paulo' },
  { id: 'Asia/Dubai', label: 'Dubaï' },
  { id: 'Asia/Singapore', label: 'Singapour' },
  { id: 'Asia/Tokyo', label: 'Tokyo' },
];

export const DEFAULT_HOURLY_TIME_ZONE = 'Europe/Brussels';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new Error(`invalid timeZone: ${timeZone}`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Offset from UTC, in hours, of `timeZone` at instant `at` (ms or Date): +2 for Brussels in
 * summer, +1 in winter. Read from Intl's wall clock, so daylight-saving rules come from the
 * platform's time-zone database rather than from a table of ours.
 */
export function timeZoneOffsetHours(timeZone: string, at: number | Date): number {
  const time = typeof at === 'number' ? at : at.getTime();
  if (!Number.isFinite(time)) throw new Error(`invalid date: ${String(at)}`);
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(time)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  const wholeSeconds = Math.floor(time / 1000) * 1000;
  return Math.round((wall - wholeSeconds) / 60_000) / 60;
}

/** A UTC hour moved into a zone with offset `offsetHours`, modulo 24. */
export function shiftHour(hourUtc: number, offsetHours: number): number {
  return (((hourUtc + offsetHours) % 24) + 24) % 24;
}

/** 'HHh' label of an hour: 7 -> '07h'. */
export function hourLabel(hour: number): string {
  return `${String(Math.floor(hour)).padStart(2, '0')}h`;
}

/** 'UTC+2', 'UTC-5', 'UTC' (how per-hour pins show their zone, docs/product.md §2.3). */
export function utcOffsetLabel(offsetHours: number): string {
  if (offsetHours === 0) return 'UTC';
  const sign = offsetHours > 0 ? '+' : '-';
  const abs = Math.abs(offsetHours);
  const hours = Math.floor(abs);
  const minutes = Math.round((abs - hours) * 60);
  return `UTC${sign}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}

export interface ShiftedHourRow<T> {
  /** Hour in the chosen zone. */
  readonly hour: number;
  /** 'HHh'. */
  readonly label: string;
  readonly row: T;
}

/**
 * The hourly sheet in another zone (docs/product.md §2.9): each row's UTC hour shifted by the offset
 * modulo 24, rows sorted by the shifted hour, labelled 'HHh'. Rows whose hour cannot be read
 * (not an integer 0..23) are dropped rather than shown at a wrong hour.
 */
export function shiftHourlyRows<T>(rows: readonly T[], hourUtcOf: (row: T) => unknown, offsetHours: number): ShiftedHourRow<T>[] {
  const shifted: ShiftedHourRow<T>[] = [];
  for (const row of rows) {
    const raw = hourUtcOf(row);
    const hourUtc = typeof raw === 'string' ? Number.parseInt(raw, 10) : raw;
    if (typeof hourUtc !== 'number' || !Number.isInteger(hourUtc) || hourUtc < 0 || hourUtc > 23) continue;
    const hour = shiftHour(hourUtc, offsetHours);
    shifted.push({ hour, label: hourLabel(hour), row });
  }
  return shifted.sort((a, b) => a.hour - b.hour);
}
